import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { checkPaths } from "../../server/src/cli/check/runner.js";
import { REPO_ROOT } from "../helpers/fixtureProject.js";

/**
 * The traps our own examples show on purpose, each as [file, code, the text the finding covers,
 * why it is there]. Everything else the analyzer reports on runtime/src or examples/ is a false
 * positive or a trap in our own code, and fails this test. A rule that flags a new intentional
 * example adds one line here.
 */
const INTENTIONAL: readonly (readonly [file: string, code: string, text: string, why: string])[] = [
  ["examples/agent.ts", "HL001", "HookPoint.API_PRE_CALL", "the demo registers a dormant handler to show HL001 in `hooklens check`"],
  ["examples/tool/agentHooks.ts", "HL004", "args", "shows that a post hook's args are always {} (it prints them)"],
  ["examples/tool/agentHooks.ts", "HL002", "onError", "shows that error hooks are stored and never run"],
  ["examples/tool/agentHooks.ts", "HL004", '"search"', "shows that a tool returning a string skips every post hook"],
  ["examples/service/traps.ts", "HL011", 'new Error("meant to block")', "shows that a returned Error does not block the call"],
  ["examples/service/traps.ts", "HL010", "substitute", "shows that a pre-create hook's return value is ignored"],
];

describe("the project's own sources", () => {
  it("analyses runtime/src and examples/ with no findings but the intentional trap examples", { timeout: 300_000 }, () => {
    const reports = checkPaths([join(REPO_ROOT, "runtime/src"), join(REPO_ROOT, "examples")]);
    expect(reports.length).toBeGreaterThan(100);
    expect(reports.flatMap((r) => r.notices.map((n) => `${relative(REPO_ROOT, r.file)}: ${n.message}`))).toEqual([]);
    const found = reports.flatMap((report) => {
      const text = readFileSync(report.file, "utf8");
      return report.findings.map((f) => `${relative(REPO_ROOT, report.file)} ${f.code} ${text.slice(f.start, f.end)}`);
    });
    expect(found.sort()).toEqual(INTENTIONAL.map(([file, code, text]) => `${file} ${code} ${text}`).sort());
  });
});
