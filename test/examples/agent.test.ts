import { describe, expect, it, vi } from "vitest";
import { runAgent } from "../../examples/agent.js";

describe("examples/agent.ts (the demo)", () => {
  it("records the guarded tool-call flow and never runs the dormant handler", async () => {
    const printed: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void printed.push(args.join(" ")));
    try {
      const signals = await runAgent();
      expect(signals.map((s) => `${s.point} ${String(s.payload["toolName"] ?? "")}`.trim())).toEqual([
        "session.start",
        "tool.pre search",
        "tool.post search",
        "tool.pre divide",
        "tool.error divide",
        // the blocked deleteFile("/etc/passwd") left no record: a raising TOOL_PRE guard records nothing
        "tool.pre deleteFile",
        "tool.post deleteFile",
        "session.end",
      ]);
      expect(printed.some((line) => line.includes("never printed"))).toBe(false);
      expect(printed.some((line) => line.includes("deleteFile blocked: refusing to delete an absolute path"))).toBe(true);
    } finally {
      log.mockRestore();
    }
  });
});
