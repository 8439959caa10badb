import { describe, expect, it } from "vitest";
import { SIGNALS_DROPPED_KIND } from "@hooklens/runtime";
import { formatSignalsText } from "../../../server/src/cli/show.js";

describe("hooklens show", () => {
  it("prints a SignalsDropped marker as the gap it is, with the count and the reason", () => {
    const text = formatSignalsText([
      { sessionId: "s", kind: "Signal", opId: "", ts: 0, payload: { data: 1 } },
      { sessionId: "s", kind: SIGNALS_DROPPED_KIND, opId: "", ts: 1, payload: { count: 1234, reason: "the database stayed locked" } },
      { sessionId: "s", kind: "ToolCallBlocked", opId: "", ts: 2, payload: { toolName: "rm", reason: "no", hook: "tool.pre:guard" } },
    ]);
    const lines = text.split("\n");
    expect(lines[1]).toMatch(/^\S+ {2}1,234 signals dropped here \(the database stayed locked\)$/);
    expect(lines[2]).toContain("ToolCallBlocked");
    expect(lines[2]).toContain("toolName=rm reason=no hook=tool.pre:guard");
  });
});
