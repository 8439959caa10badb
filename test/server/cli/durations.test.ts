import { describe, expect, it } from "vitest";
import { durationsInMs, formatMs } from "../../../server/src/cli/durations.js";
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
    expect(summarizePayload(toolPost)).toBe('0.040 ms point=tool.post payload={"toolName":"search"}');
    expect(summarizePayload({ status: "ok", durationMs: 12.345678, duration: 1.5 })).toBe("12.3 ms status=ok duration=1500 ms");
  });

  it("leads with the duration so a long payload's clip cannot hide it", () => {
    const line = summarizePayload({ point: "tool.post", payload: { result: "x".repeat(500), duration: 0.25 } });
    expect(line.startsWith("250 ms point=tool.post")).toBe(true);
    expect(line.length).toBeLessThanOrEqual(120);
  });

  it("turns every duration into durationMs rounded to the microsecond for JSON, in place", () => {
    const payload = { point: "tool.post", payload: { toolName: "t", duration: 0.000040105999999468624, after: 1 }, spans: [{ durationMs: 3.14159265 }] };
    const converted = durationsInMs(payload);
    expect(converted).toEqual({ point: "tool.post", payload: { toolName: "t", durationMs: 0.04, after: 1 }, spans: [{ durationMs: 3.142 }] });
    expect(Object.keys((converted as { payload: object }).payload)).toEqual(["toolName", "durationMs", "after"]);
    expect(durationsInMs({ duration: "slow", durationMs: null })).toEqual({ duration: "slow", durationMs: null });
  });
});
