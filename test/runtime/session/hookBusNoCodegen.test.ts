import { execFile } from "node:child_process";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../helpers/docExamples.js";
import { bundledFixture } from "../../helpers/bundledFixture.js";

// The bus generates its short-list dispatchers with `new Function`; where a process forbids code
// generation from strings it must run the same chain through its loop instead.
describe("HookBus without code generation from strings", () => {
  it("falls back to the loop dispatcher with the same chain contract", async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ["--disallow-code-generation-from-strings", bundledFixture(`${repoRoot}test/runtime/session/fixtures/busWithoutCodegen.ts`)],
        { cwd: repoRoot, timeout: 170_000 },
        (error, out, err) => resolve({ code: error ? 1 : 0, stdout: out, stderr: err }),
      );
    });
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      codegen: false,
      calls: ["sync", "async", "after failure"],
      guardOutcome: "rejected: denied",
    });
    expect(stderr).toContain("Hook failed at tool.post: Error: isolated");
  });
});
