import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import { ALL_RULES } from "../../server/src/analyzer/index.js";
import { BENCH_EDITS, HOOK_MODULE_FINDINGS, createBenchWorkspace, type BenchWorkspace } from "../bench/analyzer/workspace.js";
import { programBuilt } from "../../server/src/analyzer/engine/tsMorphInternals.js";

/**
 * The analyzer bench (`npm run bench`) measures what its generated workspace makes the analyzer
 * do. These tests hold that workspace to what the figures claim: every rule has a trap to find in
 * the runtime-using files it edits (a rule without one would cost next to nothing there, and its
 * real cost would go unmeasured), plain files cost no rule work, and every edit changes the text.
 */
let workspace: BenchWorkspace;
beforeAll(() => {
  // Hook modules import up to three earlier plain modules; 61 files give two of each import kind, one typed module (number 50)
  // and one that imports its bus and handlers from sibling modules (number 40).
  workspace = createBenchWorkspace(61, { runtime: "sources" });
});
afterAll(() => workspace.dispose());

const codesOf = (project: AnalysisProject, path: string, text: string): string[] => {
  project.setBuffer(path, text);
  return project.analyze(path).findings.map((finding) => finding.code);
};

describe("the analyzer bench's workspace", () => {
  it("gives every rule a finding in each hook module, through a direct import of the runtime and through the project's barrel", () => {
    const [direct, viaBarrel] = workspace.runtimeFiles as [string, string];
    expect(readFileSync(direct, "utf8")).toContain('from "@hooklens/runtime";');
    expect(readFileSync(viaBarrel, "utf8")).toContain('from "./hooklib.js";');
    const project = new AnalysisProject(workspace.dir);
    for (const path of [direct, viaBarrel]) {
      const codes = codesOf(project, path, readFileSync(path, "utf8"));
      expect(codes).toEqual([...HOOK_MODULE_FINDINGS]);
      expect(new Set(codes)).toEqual(new Set(ALL_RULES.map((rule) => rule.code)));
    }
  });

  it("settles every question of a hook module by syntax (no program), its imports too, and leaves those of a typed one to the checker", () => {
    const [typed] = workspace.typedRuntimeFiles as [string];
    const [importing] = workspace.importingRuntimeFiles as [string];
    expect(readFileSync(typed, "utf8")).toContain("bus = new HookBus(); }");
    expect(readFileSync(importing, "utf8")).toContain('import { bus } from "./wiring.js";');
    expect(readFileSync(importing, "utf8")).toContain("bus.on(HookPoint.TOOL_PRE, auditTool);");
    for (const [path, builds] of [
      [workspace.runtimeFiles[2]!, false],
      [importing, false],
      [typed, true],
    ] as const) {
      const project = new AnalysisProject(workspace.dir);
      const file = project.setText(path, readFileSync(path, "utf8"));
      expect(project.analyze(path).findings.map((finding) => finding.code)).toEqual([...HOOK_MODULE_FINDINGS]);
      expect(programBuilt(file.getProject())).toBe(builds);
    }
  });

  it("keeps every finding through the bench's edits of a hook module", () => {
    const path = workspace.runtimeFiles[2]!;
    const text = readFileSync(path, "utf8");
    const project = new AnalysisProject(workspace.dir);
    for (const edit of [BENCH_EDITS.runtimeNumber, BENCH_EDITS.runtimeString]) {
      for (const n of [1, 2]) {
        const edited = edit(text, n);
        expect(edited).not.toBe(text);
        expect(codesOf(project, path, edited)).toEqual([...HOOK_MODULE_FINDINGS]);
      }
    }
  });

  it("answers an edited plain module without running a rule", () => {
    const path = workspace.plainFiles[20]!;
    const text = readFileSync(path, "utf8");
    const edited = BENCH_EDITS.plainNumber(text, 7);
    expect(edited).not.toBe(text);
    const project = new AnalysisProject(workspace.dir);
    expect(codesOf(project, path, edited)).toEqual([]);
    expect(project.stats).toMatchObject({ checkedAnalyses: 0, skippedAnalyses: 1 });
  });
});
