import { DORMANT_HOOK_POINTS, HookPoint } from "@hooklens/runtime";
import { describe, expect, it } from "vitest";
import { HOOK_POINTS, HOOK_POINT_VALUES, LIVE_HOOK_POINTS } from "../../../client/src/scaffold/kinds.js";

// The extension keeps its own table (the runtime is too large to bundle for two constants);
// these tests keep the table and the runtime in step.
describe("the scaffold's hook point table", () => {
  it("lists exactly the runtime's HookPoint members", () => {
    expect([...HOOK_POINT_VALUES].sort()).toEqual(Object.values(HookPoint).sort());
    for (const value of HOOK_POINT_VALUES) expect(HookPoint[HOOK_POINTS[value].member]).toBe(value);
  });

  it("marks as dormant exactly the runtime's DORMANT_HOOK_POINTS", () => {
    const dormant = HOOK_POINT_VALUES.filter((value) => HOOK_POINTS[value].dormant);
    expect(dormant.sort()).toEqual([...DORMANT_HOOK_POINTS].map(String).sort());
    expect(LIVE_HOOK_POINTS).toHaveLength(7);
  });
});
