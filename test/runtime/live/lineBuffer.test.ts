import { describe, expect, it } from "vitest";
import { LineBuffer, recycleChunk } from "../../../runtime/src/live/lineBuffer.js";

/** One chunk's worth of lines, taken out of a fresh LineBuffer. */
function filledChunk(text: string): Uint8Array {
  const lines = new LineBuffer();
  lines.append(text, "", "", 1_000);
  return lines.chunks()[0]!.bytes;
}

describe("LineBuffer chunks", () => {
  it("writes into the memory of a chunk given back, and gives it out once", () => {
    const first = filledChunk("first");
    recycleChunk(first);
    recycleChunk(first); // a second return of the same chunk must not hand it out twice
    const second = filledChunk("second");
    const third = filledChunk("third");
    expect(second.buffer).toBe(first.buffer);
    expect(third.buffer).not.toBe(second.buffer);
    expect(Buffer.from(second).toString()).toBe("second\n");
    expect(Buffer.from(third).toString()).toBe("third\n");
  });

  it("takes back only memory it handed out", () => {
    const foreign = Buffer.alloc(16 * 1024);
    recycleChunk(foreign);
    expect(filledChunk("line").buffer).not.toBe(foreign.buffer);
  });

  it("writes a line's parts one after the other, and keeps no part of a line over the limit", () => {
    const lines = new LineBuffer();
    expect(lines.append('{"a":', '{"b":"ü"}', "}", 100)).toBe(true);
    expect(lines.append("x".repeat(60), "é".repeat(20), "", 90)).toBe(false); // 100 bytes in UTF-8, 80 characters
    expect(lines.append("[", "1", "]", 3)).toBe(true);
    expect(lines.lineCount).toBe(2);
    expect(Buffer.from(lines.chunks()[0]!.bytes).toString()).toBe('{"a":{"b":"ü"}}\n[1]\n');
  });
});
