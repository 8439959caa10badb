import { describe, expect, it } from "vitest";
import { formatMs } from "../../../server/src/cli/durations.js";
import { summarizePayload } from "../../../server/src/cli/show.js";

describe("durations in hooklens show", () => {
  it.each([
    [0.040105999999468624, "0.040 ms", "sub-millisecond: three decimals (microseconds)"],
    [4.2519, "4.25 ms", "single milliseconds: two decimals"],
    [37.149, "37.1 ms", "tens: one decimal"],
    [1250.4, "1250 ms", "hundreds and more: whole milliseconds"],
  ])("formatMs(%s) is %s (%s)", (ms, shown) => {
    expect(formatMs(ms)).toBe(shown);
  });

  it("shows a tool signal's duration (seconds in the payload) in ms, nested or not", () => {
    const toolPost = { point: "tool.post", payload: { toolName: "search", duration: 0.000040105999999468624 } };
    expect(summarizePayload(toolPost)).toBe('point=tool.post payload={"toolName":"search","duration":"0.040 ms"}');
    expect(summarizePayload({ durationMs: 12.345678, duration: 1.5 })).toBe("durationMs=12.3 ms duration=1500 ms");
  });
});
