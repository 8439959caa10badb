import { describe, expect, it } from "vitest";
import { newId } from "../../../runtime/src/shared/ids.js";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("newId", () => {
  it("gives version 4 UUIDs, all different, across many refills", () => {
    const ids = Array.from({ length: 5_000 }, newId);
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("uses the random bits: every hex digit shows up in every free position", () => {
    const ids = Array.from({ length: 2_000 }, newId);
    for (const position of [0, 9, 15, 20, 35]) {
      const digits = new Set(ids.map((id) => id[position]));
      expect(digits.size, `position ${position}`).toBe(16);
    }
    // The variant position holds only 8, 9, a and b, each of them.
    expect(new Set(ids.map((id) => id[19]))).toEqual(new Set(["8", "9", "a", "b"]));
  });
});
