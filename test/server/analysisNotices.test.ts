import { afterEach, describe, expect, it } from "vitest";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import { dormantHookPoint } from "../../server/src/analyzer/packs/hooklens/rules/hl001DormantHookPoint.js";
import type { Rule } from "../../server/src/analyzer/packs/hooklens/facts.js";
import { hookLensPack } from "../../server/src/analyzer/packs/hooklens/index.js";
import { unreadableFileNotice } from "../../server/src/analyzer/engine/unreadableFile.js";
import { createFixture, type Fixture } from "../helpers/fixtureProject.js";

let fixture: Fixture | undefined;
afterEach(() => fixture?.dispose());

const IMPORT = `import { hook } from "@hooklens/runtime";`;

function analyze(text: string, options: { runtime?: "resolved" | "missing"; rules?: Rule[] } = {}) {
  fixture = createFixture(options.runtime);
  const file = fixture.write("main.ts", text);
  return new AnalysisProject(fixture.dir, options.rules ? { packs: [{ ...hookLensPack, rules: options.rules }] } : {}).analyze(file);
}

// The first analysis of a file pays the cold start (TypeScript and the runtime's sources), which a loaded machine stretches.
describe("analysis notices: a file that was not fully analysed says so", { timeout: 120_000 }, () => {
  it("a clean, complete file has no notice", () => {
    expect(analyze(`${IMPORT}\nexport const h = hook("tool.post")(() => 1);\n`).notices).toEqual([]);
  });

  it("syntax errors are counted, the first is quoted, and the notice sits on the runtime import", () => {
    const text = `${IMPORT}\nexport const h = hook("tool.post")(() => 1) +;\nconst = 2;\n`;
    const { notices } = analyze(text);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ kind: "syntax-errors", start: 0, end: IMPORT.length });
    expect(notices[0]!.message).toMatch(/^Not fully analysed: \d+ syntax errors \(line 2: Expression expected\.\)/);
  });

  it("a syntax error in a file without a runtime import points at the error itself", () => {
    const text = `export const x = (1;\n`;
    const [notice, ...others] = analyze(text).notices;
    expect(others).toEqual([]);
    expect(notice).toMatchObject({ kind: "syntax-errors", message: expect.stringMatching(/^Not fully analysed: a syntax error \(line 1: '\)' expected\.\)/) });
    expect(text.slice(notice!.start, notice!.end)).toBe(";");
  });

  // A file that cannot reach the runtime is answered from syntax alone: its syntax errors must be
  // read without a program or a type checker, on every path a file can come in by.
  describe("a plain file (no runtime import) with syntax errors, without a type checker", () => {
    const BROKEN = `export function add(a: number, b: number) {\n  return a + ;\n}\n`;
    const project = (): AnalysisProject => {
      fixture = createFixture();
      return new AnalysisProject(fixture.dir);
    };

    it("an editor buffer: the notice follows each new text", () => {
      const analysis = project();
      const path = fixture!.path("plain.ts");
      analysis.setBuffer(path, BROKEN);
      expect(analysis.analyze(path).notices).toMatchObject([{ kind: "syntax-errors", message: expect.stringContaining("(line 2: Expression expected.)") }]);
      analysis.setBuffer(path, BROKEN.replace("a + ;", "a + b;"));
      expect(analysis.analyze(path).notices).toEqual([]);
      expect(analysis.stats).toEqual({ checkedAnalyses: 0, skippedAnalyses: 2, reusedAnalyses: 0, filesListed: 0, filesScanned: 0, packageFilesParsed: 0, heldFileLookups: 0, buffersReparsedIncrementally: 0, buffersParsedWhole: 0, programsBuiltWhole: 0 });
      expect(analysis.has(path)).toBe(false);
    });

    it("a file on disk, read by path", () => {
      const analysis = project();
      const path = fixture!.write("plain.ts", BROKEN);
      expect(analysis.analyze(path).notices.map((n) => n.kind)).toEqual(["syntax-errors"]);
      expect(analysis.stats.checkedAnalyses).toBe(0);
    });

    it("a file the project already parsed (the CLI adds its files first), and again after its buffer changed", () => {
      const analysis = project();
      const path = fixture!.write("plain.ts", BROKEN);
      analysis.addFromDisk(path);
      expect(analysis.analyze(path).notices.map((n) => n.kind)).toEqual(["syntax-errors"]);
      analysis.setBuffer(path, "export const fixed = 1;\n");
      expect(analysis.analyze(path).notices).toEqual([]);
      expect(analysis.stats.checkedAnalyses).toBe(0);
    });

    it("a buffer the parser gives up on is an unsupported-file notice, not a thrown error", () => {
      const analysis = project();
      const path = fixture!.path("deep.ts");
      // Deep enough to overflow the stack however small the parser's frames are once V8 has
      // optimised it (2,000 levels parsed fine late in a full run, with the parser hot).
      analysis.setBuffer(path, `export const x = ${"(".repeat(100_000)}1${")".repeat(100_000)};\n`);
      expect(analysis.analyze(path).notices).toMatchObject([{ kind: "unsupported-file", message: expect.stringContaining("RangeError") }]);
    });
  });

  it("an unresolvable runtime import is reported on that import", () => {
    const text = `import type { HookBus } from "react";\n${IMPORT}\nexport const h = hook("tool.post")(() => 1);\n`;
    const { notices } = analyze(text, { runtime: "missing" });
    expect(notices.map((n) => n.kind)).toEqual(["runtime-unresolved"]);
    expect(text.slice(notices[0]!.start, notices[0]!.end)).toBe(IMPORT);
    expect(notices[0]!.message).toContain(`"@hooklens/runtime" cannot be resolved`);
  });

  // Every form a runtime import can take at the top of a file; the notice sits on the first one.
  it.each([
    ["a re-export", `export { hook } from "@hooklens/runtime";`],
    ["import =", `import runtime = require("@hooklens/runtime");`],
    ["a require() declaration", `const runtime = require("@hooklens/runtime");`, `require("@hooklens/runtime")`],
    ["a subpath import", `import { exportTo } from "@hooklens/runtime/otel";`],
  ])("an unresolvable runtime import is reported on it: %s", (_form, statement, located = statement) => {
    const text = `import { readFileSync } from "node:fs";\nconst other = require("node:path");\n${statement}\n${IMPORT}\nexport { readFileSync, other };\n`;
    const { notices } = analyze(text, { runtime: "missing" });
    expect(notices.map((n) => n.kind)).toEqual(["runtime-unresolved"]);
    expect(text.slice(notices[0]!.start, notices[0]!.end)).toBe(located);
  });

  it("names the rules that failed and keeps the other rules' findings", () => {
    const exploding = (code: string): Rule => ({ code, name: "explodes", defaultSeverity: "error", summary: "", check: () => { throw new Error("rule bug"); } });
    const result = analyze(`${IMPORT}\nhook("api.pre_call")(() => 1);\n`, { rules: [exploding("HL901"), dormantHookPoint, exploding("HL902")] });
    expect(result.findings.map((f) => f.code)).toEqual(["HL001"]);
    expect(result.notices).toEqual([
      { kind: "rules-failed", rules: ["HL901", "HL902"], start: 0, end: IMPORT.length, message: "Not fully analysed: rules HL901, HL902 failed on this file (rule bug)." },
    ]);
  });

  // While typing, a new `import {` inside an import list leaves the names above it in a
  // declaration without a module string; ts-morph's getModuleSpecifierValue then threw in the
  // shared resolver and every rule that looked such a name up failed.
  it.each([
    [`import { Session } from "@hooklens/runt`],
    [`import {`],
  ])("an unfinished import line (%s) inside an import list makes no rule fail", (unfinished) => {
    const text = `import {\n  HookBus,\n  HookRegistry,\n${unfinished}\n  HookPoint,\n  type StreamHandler,\n} from "@hooklens/runtime";\n` +
      `const bus = new HookBus();\nbus.on(HookPoint.API_PRE_CALL, () => 1);\n` +
      `const onChunk: StreamHandler = (chunk) => chunk;\nnew HookRegistry({ streamHandlers: { text: onChunk } });\n`;
    const result = analyze(text);
    expect(result.failures).toEqual([]);
    expect(result.notices.map((n) => n.kind)).toEqual(["syntax-errors"]);
  });

  it("a file type the analyzer does not read, and a file the parser gave up on, are unsupported-file notices", () => {
    expect(unreadableFileNotice("/x/component.vue")).toMatchObject({ kind: "unsupported-file", message: expect.stringContaining("not .vue") });
    const overflow = unreadableFileNotice("/x/deep.ts", new RangeError("Maximum call stack size exceeded"));
    expect(overflow.message).toContain("nesting too deep");
  });
});
