import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moduleKindOf, planRuntimeImports, type Insertion } from "../../../client/src/scaffold/imports.js";
import { renderInsertion, type Language, type RuntimeImport, type TemplateOptions } from "../../../client/src/scaffold/templates/index.js";
import { expandSnippet, generatedChecker, type GeneratedChecker } from "./checkGenerated.js";

const value = (name: string): RuntimeImport => ({ name, typeOnly: false });
const type = (name: string): RuntimeImport => ({ name, typeOnly: true });
const apply = (text: string, edit: Insertion | null) => (edit ? text.slice(0, edit.offset) + edit.text + text.slice(edit.offset) : text);

describe("adding runtime imports for a hook inserted at the cursor", () => {
  it("adds an import statement at the top of a file without imports", () => {
    expect(apply("const x = 1;\n", planRuntimeImports("const x = 1;\n", [value("HookPoint"), type("HookBus")], "ts"))).toBe(
      'import { type HookBus, HookPoint } from "@hooklens/runtime";\n\nconst x = 1;\n',
    );
    expect(apply("", planRuntimeImports("", [value("Hook")], "js"))).toBe('import { Hook } from "@hooklens/runtime";\n');
  });

  it("keeps a shebang first and goes after the last import otherwise", () => {
    expect(apply("#!/usr/bin/env node\nrun();\n", planRuntimeImports("#!/usr/bin/env node\nrun();\n", [value("Hook")], "ts"))).toBe(
      '#!/usr/bin/env node\nimport { Hook } from "@hooklens/runtime";\n\nrun();\n',
    );
    const text = 'import fs from "node:fs";\nimport {\n  a,\n  b,\n} from "./ab.js";\n\nrun();\n';
    expect(apply(text, planRuntimeImports(text, [value("Hook")], "ts"))).toBe(
      'import fs from "node:fs";\nimport {\n  a,\n  b,\n} from "./ab.js";\nimport { Hook } from "@hooklens/runtime";\n\nrun();\n',
    );
  });

  it("merges missing names into an existing runtime import and skips present ones", () => {
    const text = 'import { HookPoint, Session } from "@hooklens/runtime";\n';
    expect(apply(text, planRuntimeImports(text, [value("HookPoint"), type("HookBus")], "ts"))).toBe(
      'import { HookPoint, Session, type HookBus } from "@hooklens/runtime";\n',
    );
    const multiline = 'import {\n  HookPoint,\n} from "@hooklens/runtime";\n';
    expect(apply(multiline, planRuntimeImports(multiline, [value("Hook")], "ts"))).toBe('import {\n  HookPoint, Hook,\n} from "@hooklens/runtime";\n');
    expect(planRuntimeImports(text, [value("HookPoint"), value("Session")], "ts")).toBeNull();
  });

  it("counts a type-only import for types but not for values, and ignores renamed imports", () => {
    const text = 'import type { HookBus, HookPoint } from "@hooklens/runtime";\n';
    expect(planRuntimeImports(text, [type("HookBus")], "ts")).toBeNull();
    expect(apply(text, planRuntimeImports(text, [value("HookPoint")], "ts"))).toBe(`${text}import { HookPoint } from "@hooklens/runtime";\n`);
    const renamed = 'import { HookPoint as P } from "@hooklens/runtime";\n';
    expect(apply(renamed, planRuntimeImports(renamed, [value("HookPoint")], "ts"))).toBe('import { HookPoint as P, HookPoint } from "@hooklens/runtime";\n');
  });

  it("writes require() in a CommonJS file and merges into an existing destructuring", () => {
    const cjs = 'const fs = require("node:fs");\nmodule.exports = {};\n';
    expect(apply(cjs, planRuntimeImports(cjs, [value("Hook"), type("ToolInvocation")], "js"))).toBe(
      'const { Hook } = require("@hooklens/runtime");\n\nconst fs = require("node:fs");\nmodule.exports = {};\n',
    );
    const existing = 'const { Session } = require("@hooklens/runtime");\n';
    expect(apply(existing, planRuntimeImports(existing, [value("Hook")], "js"))).toBe('const { Session, Hook } = require("@hooklens/runtime");\n');
  });
});

// What the command does at the cursor, without VS Code: add the imports, then the snippet's text.
function insertAtCursor(text: string, marker: string, options: TemplateOptions, language: Language): string {
  let cursor = text.indexOf(marker);
  text = text.replace(marker, "");
  const { snippet, imports } = renderInsertion(options, language, moduleKindOf(text, language));
  const edit = planRuntimeImports(text, imports, language);
  if (edit) {
    text = apply(text, edit);
    if (edit.offset <= cursor) cursor += edit.text.length;
  }
  return text.slice(0, cursor) + expandSnippet(snippet) + text.slice(cursor);
}

describe("a hook inserted into an existing file", () => {
  let checker: GeneratedChecker;
  beforeAll(() => void (checker = generatedChecker()));
  afterAll(() => checker.dispose());

  const existing = 'import { Session } from "@hooklens/runtime";\n\nexport const session = new Session();\n\n|\n';
  const cases: readonly TemplateOptions[] = [
    { kind: "session", name: "onToolError", hookPoint: "tool.error" },
    { kind: "servicePhase", name: "guard", phase: "pre_invocation" },
    { kind: "serviceStream", name: "onChunk", chunkType: "Object" },
    { kind: "tool", name: "searchHooks", toolName: "search" },
    { kind: "middleware", name: "Audit", phases: ["beforeLlm", "onLlmEnd"] },
  ];

  it.each(cases.flatMap((options) => (["ts", "js"] as const).map((language) => [options.kind, language, options] as const)))(
    "%s (%s): analyzer-clean and well typed",
    (_kind, language, options) => {
      const text = insertAtCursor(existing, "|", options, language);
      expect(text.match(/from "@hooklens\/runtime"/g)).toHaveLength(1);
      expect(checker.findings(`existing.${language}`, text)).toEqual([]);
      expect(checker.typeErrors(`existing.${language}`, text)).toEqual([]);
    },
  );

  it.each(cases.map((options) => [options.kind, options] as const))("%s in a CommonJS file: require() and no export keyword", (_kind, options) => {
    const commonJs = 'const { Session } = require("@hooklens/runtime");\n\nconst session = new Session();\n|\nmodule.exports = { session };\n';
    const text = insertAtCursor(commonJs, "|", options, "js");
    expect(text).not.toMatch(/^export /m);
    expect(text).not.toMatch(/^import /m);
    expect(checker.findings("existing.cjs", text)).toEqual([]);
    // Without `export` the new functions are unused until the user adds them to module.exports.
    expect(checker.typeErrors("existing.cjs", text).filter((error) => !/is declared but (its value is )?never (read|used)/.test(error))).toEqual([]);
  });
});
