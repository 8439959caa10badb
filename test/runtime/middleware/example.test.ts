import { describe, expect, it } from "vitest";
import type { Logger, LogLevel } from "@hooklens/runtime";
import { main } from "../../../examples/hooks.js";

function collectingLogger(): { logger: Logger; lines: { level: LogLevel; fields: Record<string, unknown> }[] } {
  const lines: { level: LogLevel; fields: Record<string, unknown> }[] = [];
  const at = (level: LogLevel) => (obj: object | string) =>
    void lines.push({ level, fields: typeof obj === "string" ? {} : (obj as Record<string, unknown>) });
  return { logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") }, lines };
}

describe("examples/hooks.ts", () => {
  it("runs the documented example: cached answer, real search, guardrail block, model call, thread budget stop", async () => {
    const printed: string[] = [];
    const { logger, lines } = collectingLogger();
    const outcome = await main({ print: (line) => void printed.push(line), logger });

    expect(outcome.redacted).toEqual({ query: "returns", api_key: "[redacted]", headers: { Authorization: "[redacted]" } });
    expect(outcome.answers).toEqual([["returns: free within 30 days"], ["shipping: see the help centre"]]);
    expect(outcome.blocked).toBe("args: looks like a password");
    expect(outcome.reply).toBe("Returns are free within 30 days.");
    expect(outcome.budget).toEqual({ scope: "thread", limitUsd: 0.5, spentUsd: 0.6 });
    expect(printed).toContain("thread 0.5 0.6");

    const events = lines.map((l) => l.fields["event"]).filter((e) => e !== undefined);
    expect(events).toEqual([
      "tool.start",
      "tool.finish",
      "tool.start",
      "tool.finish",
      "tool.start",
      "llm.start",
      "llm.finish",
      "tool.start",
    ]);
    const warnings = lines.filter((l) => l.level === "warn").map((l) => l.fields["hook"]);
    expect(warnings).toEqual(["guardrail", "budget"]);
  });
});
