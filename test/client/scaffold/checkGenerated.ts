// Checks generated code the way a user's project would: the real HookLens analyzer, and the
// TypeScript compiler against the runtime's own types under strict settings.
import { join } from "node:path";
import { Project, ts } from "ts-morph";
import { AnalysisProject } from "../../../server/src/analyzer/index.js";
import type { Finding } from "../../../server/src/analyzer/index.js";
import { createFixture, REPO_ROOT, type Fixture } from "../../helpers/fixtureProject.js";

export interface GeneratedChecker {
  /** HookLens findings for `text` saved as `fileName` (relative to the fixture folder). */
  findings(fileName: string, text: string): Finding[];
  /** Compiler errors, formatted one per line. */
  typeErrors(fileName: string, text: string): string[];
  dispose(): void;
}

// Stricter than the fixture's tsconfig on purpose: generated code must not trip a careful user's flags.
const STRICT: ts.CompilerOptions = {
  strict: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noImplicitOverride: true,
  noImplicitReturns: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2023.d.ts"],
  types: ["node"],
  skipLibCheck: true,
  allowJs: true,
  checkJs: true,
  noEmit: true,
  paths: { "@hooklens/runtime": [join(REPO_ROOT, "runtime/src/index.ts")] },
};

export function generatedChecker(): GeneratedChecker {
  const fixture: Fixture = createFixture("resolved");
  const analysis = new AnalysisProject(fixture.dir);
  const compiler = new Project({ compilerOptions: STRICT });
  // Plain JavaScript has no annotations and no \`override\`: check it as a JS project would (checkJs).
  const jsCompiler = new Project({ compilerOptions: { ...STRICT, noImplicitAny: false, noImplicitOverride: false } });
  return {
    findings(fileName, text) {
      const path = fixture.path(fileName);
      analysis.setText(path, text);
      const { findings, failures } = analysis.analyze(path);
      if (failures.length > 0) throw new Error(`analyzer rules failed: ${failures.map((f) => f.code).join(", ")}`);
      return findings;
    },
    typeErrors(fileName, text) {
      const file = (/\.[cm]?jsx?$/.test(fileName) ? jsCompiler : compiler).createSourceFile(fixture.path(fileName), text, { overwrite: true });
      return file.getPreEmitDiagnostics().map((d) => `${d.getLineNumber() ?? "-"}: ${ts.flattenDiagnosticMessageText(d.compilerObject.messageText, "\n")}`);
    },
    dispose: () => fixture.dispose(),
  };
}

/** Plays a snippet back to the text VS Code would insert: placeholders keep their text, escapes resolve. */
export function expandSnippet(snippet: string): string {
  let out = "";
  let depth = 0;
  for (let i = 0; i < snippet.length; i++) {
    const ch = snippet[i]!;
    if (ch === "\\" && i + 1 < snippet.length && "$}\\".includes(snippet[i + 1]!)) {
      out += snippet[++i];
    } else if (ch === "$") {
      const tabStop = /^\$(\d+)|^\$\{(\d+):/.exec(snippet.slice(i));
      if (!tabStop) throw new Error(`unescaped $ at ${i}: ${snippet.slice(i, i + 20)}`);
      if (tabStop[2] !== undefined) depth++;
      i += tabStop[0].length - 1;
    } else if (ch === "}") {
      if (depth === 0) throw new Error(`unescaped } at ${i}`);
      depth--;
    } else {
      out += ch;
    }
  }
  if (depth !== 0) throw new Error("unclosed placeholder");
  return out;
}
