import { describe, expect, it } from "vitest";
import { HookSignal } from "@hooklens/runtime";
import { runAgent } from "../../examples/agent.js";

describe("examples/agent.ts (the demo)", () => {
  it("runs through every scope, records the tool flow, and never runs the dormant handler", async () => {
    const { signals, lines } = await runAgent(() => undefined);
    const points = signals.filter((s): s is HookSignal => s instanceof HookSignal).map((s) => `${s.point} ${String(s.payload["toolName"] ?? "")}`.trim());
    expect(points).toEqual([
      "session.start",
      "tool.pre search",
      "tool.post search",
      "tool.pre refund",
      "tool.post refund",
      "tool.pre refund",
      "tool.error refund",
      // deleteFile("/etc/passwd") was blocked by the TOOL_PRE guard: a raising guard leaves no record
      "tool.pre deleteFile",
      "tool.post deleteFile",
      "session.end",
    ]);
    expect(lines.filter((l) => l.includes("[service] pre-invocation hook"))).toHaveLength(2);
    expect(lines).toContain("model (streamed) → Your refund is on its way.");
    expect(lines.some((l) => l.startsWith('deleteFile({"path":"/etc/passwd"}) → blocked by the TOOL_PRE guard'))).toBe(true);
    expect(lines.some((l) => l.includes("never printed"))).toBe(false);
  });
});
