import { afterAll, describe, expect, it } from "vitest";
import { pathToFileURL } from "node:url";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import { toDiagnostic } from "../../server/src/lsp/convert.js";
import type { Rule } from "../../server/src/analyzer/packs/hooklens/facts.js";
import { hookLensPack } from "../../server/src/analyzer/packs/hooklens/index.js";
import { createFixture } from "../helpers/fixtureProject.js";

// Handlers declared in a sibling module, each with a trap a rule reports inside a handler. Padded
// so that offsets in it would land on other text (or past the end) of the modules registering them.
const HANDLERS = `// Handlers shared by the hook modules of this project.
// (padding, so that offsets here mean other text in the importers)

export function tidy(_tool: string, _action: string, args: Record<string, unknown>, _result: Record<string, unknown>) {
  if (args["file_path"]) return "changed";
  return "done";
}

export function onText(chunk: unknown) {
  return String(chunk);
}

export function substitute(eventClass: unknown) {
  return { substitute: eventClass };
}

export function refuse(event: unknown) {
  if (!event) return new Error("meant to block");
}
`;

const MAINS = {
  post: `import { AgentSpec } from "@hooklens/runtime";\nimport { tidy } from "./handlers.js";\n\nexport const spec = new AgentSpec();\nspec.post("write", tidy);\n`,
  stream: `import { HookRegistry } from "@hooklens/runtime";\nimport { onText } from "./handlers.js";\n\nexport const registry = new HookRegistry({ streamHandlers: { text: onText } });\n`,
  phases: `import { HookRegistry } from "@hooklens/runtime";\nimport { refuse, substitute } from "./handlers.js";\n\nconst registry = new HookRegistry();\nregistry.preEventCreateHook(substitute);\nregistry.preInvoke(refuse);\n`,
};

const fixture = createFixture();
fixture.write("handlers.ts", HANDLERS);
for (const [name, text] of Object.entries(MAINS)) fixture.write(`${name}.ts`, text);
afterAll(() => fixture.dispose());

/** The findings of one module: code, the text of the analysed file they cover, the explanation's first sentence, whether a fix is offered. */
function findingsOf(name: keyof typeof MAINS, followImports: boolean): { code: string; text: string; where: string; fix: boolean }[] {
  const path = fixture.path(`${name}.ts`);
  const result = new AnalysisProject(fixture.dir, { followImports }).analyze(path);
  expect(result.failures).toEqual([]);
  expect(result.notices).toEqual([]);
  const text = MAINS[name];
  return result.findings.map((f) => ({ code: f.code, text: text.slice(f.start, f.end), where: f.explanation?.split(". ")[0] ?? "", fix: f.fix !== undefined }));
}

describe("a finding inside a handler declared in another module sits on the handler's name in the analysed file", () => {
  // Both ways of finding the handler (syntax following the import, the checker's alias) report the same.
  it.each([true, false])("HL004, a post hook imported (imports followed by syntax: %s)", (followImports) => {
    expect(findingsOf("post", followImports)).toEqual([
      { code: "HL004", text: "tidy", where: "The handler is declared in ./handlers.ts:4", fix: false },
      { code: "HL004", text: "tidy", where: "The handler is declared in ./handlers.ts:4", fix: false },
    ]);
  });

  it.each([true, false])("HL003, a stream handler imported (imports followed by syntax: %s)", (followImports) => {
    expect(findingsOf("stream", followImports)).toEqual([{ code: "HL003", text: "onText", where: "The handler is declared in ./handlers.ts:9", fix: false }]);
  });

  it.each([true, false])("HL010 and HL011, phase hooks imported (imports followed by syntax: %s)", (followImports) => {
    expect(findingsOf("phases", followImports)).toEqual([
      { code: "HL010", text: "substitute", where: "The handler is declared in ./handlers.ts:13", fix: false },
      { code: "HL011", text: "refuse", where: "The handler is declared in ./handlers.ts:17", fix: false },
    ]);
  });

  it("names the handler's declaration as related information: in the finding, and in the editor's diagnostic", () => {
    const path = fixture.path("stream.ts");
    const [finding] = new AnalysisProject(fixture.dir).analyze(path).findings;
    expect(finding!.related).toEqual({ file: fixture.path("handlers.ts"), line: 8, character: 0, message: "The handler is declared here" });
    const lineStarts = [0, ...[...MAINS.stream.matchAll(/\n/g)].map((m) => m.index + 1)];
    const diagnostic = toDiagnostic(finding!, lineStarts, (code) => `docs/${code}`);
    expect(diagnostic.relatedInformation).toEqual([
      { location: { uri: pathToFileURL(fixture.path("handlers.ts")).href, range: { start: { line: 8, character: 0 }, end: { line: 8, character: 0 } } }, message: "The handler is declared here" },
    ]);
  });

  it("a handler of the analysed file is still reported where the trap is, with its fix", () => {
    const local = `import { HookRegistry } from "@hooklens/runtime";\n\nexport const registry = new HookRegistry({ streamHandlers: { text: (chunk: unknown) => String(chunk) } });\n`;
    const path = fixture.write("local.ts", local);
    const [finding, ...rest] = new AnalysisProject(fixture.dir).analyze(path).findings;
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ code: "HL003" });
    expect(local.slice(finding!.start, finding!.end)).toBe("chunk: unknown");
    expect(finding!.explanation).not.toContain("declared in");
    expect(finding!.fix).toBeDefined();
    expect(finding!.related).toBeUndefined();
  });
});

describe("a rule that reports a range outside the analysed file", () => {
  it("fails alone (the other rules' findings stay, a notice says the file was not fully analysed) instead of the analysis", () => {
    const path = fixture.path("post.ts");
    const outside: Rule = {
      code: "HL999",
      name: "outside",
      defaultSeverity: "warning",
      summary: "Reports past the end of the file.",
      check: (context) => context.report({ start: 0, end: context.sourceFile.getEnd() + 40, message: "past the end" }),
    };
    const inside: Rule = { ...outside, code: "HL998", check: (context) => context.report({ start: 0, end: 6, message: "the import" }) };
    const result = new AnalysisProject(fixture.dir, { packs: [{ ...hookLensPack, rules: [outside, inside] }] }).analyze(path);
    expect(result.findings.map((f) => f.code)).toEqual(["HL998"]);
    expect(result.failures.map((f) => [f.code, String(f.error)])).toEqual([["HL999", expect.stringContaining("outside the file")]]);
    expect(result.notices.map((n) => n.kind)).toEqual(["rules-failed"]);
  });
});
