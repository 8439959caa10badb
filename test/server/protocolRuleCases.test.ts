import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { DocumentDiagnosticReportKind, type Diagnostic, type FullDocumentDiagnosticReport, type TextDocumentEdit } from "vscode-languageserver-protocol/node";
import { serveFixture } from "../helpers/lspClient.js";

// One case per rule (HL001, HL003 and HL005 are in protocol.test.ts, HL012–HL015 in
// protocolTrapRules.test.ts) through the bundled server as a child process, driven over JSON-RPC as an
// editor would: the diagnostic lands where the rule says, the hover names the rule, and the quick
// fix (where there is one) comes back pinned to the document version.

interface Case {
  code: string;
  file: string;
  text: string;
  /** LSP severity: 1 error, 2 warning. */
  severity?: 1 | 2;
  /** The text the diagnostic covers. */
  covers: string;
  /** The quick fix's single edit: the text it replaces and the new text; null when the rule offers none. */
  fix: { replaces: string; newText: string } | null;
}

const CASES: Case[] = [
  {
    code: "HL002",
    file: "onError.ts",
    text: 'import { AgentSpec } from "@hooklens/runtime";\nnew AgentSpec().onError("search", () => undefined);\n',
    covers: "onError",
    fix: null,
  },
  {
    code: "HL004",
    file: "postArgs.ts",
    text: 'import { AgentSpec } from "@hooklens/runtime";\nnew AgentSpec().post("search", (_tool, _action, args, result) => ({ ...result, query: args["query"] }));\n',
    covers: "args",
    fix: null,
  },
  {
    code: "HL006",
    file: "preTransform.ts",
    text: 'import { HookBus, HookPoint } from "@hooklens/runtime";\nnew HookBus().on(HookPoint.TOOL_PRE, (payload) => {\n  return { ...payload, argsSummary: "{}" };\n});\n',
    covers: 'return { ...payload, argsSummary: "{}" };',
    fix: null,
  },
  {
    code: "HL007",
    file: "guard.ts",
    text: 'import { HookBus, HookPoint, StopHook } from "@hooklens/runtime";\nnew HookBus().on(HookPoint.TOOL_PRE, () => {\n  throw new StopHook("blocked");\n});\n',
    covers: 'throw new StopHook("blocked");',
    fix: { replaces: "StopHook", newText: "Error" },
  },
  {
    code: "HL008",
    file: "point.ts",
    text: 'import { HookBus, HookPoint } from "@hooklens/runtime";\nnew HookBus().on("TOOL_PRE" as HookPoint, () => undefined);\n',
    covers: '"TOOL_PRE"',
    severity: 1,
    fix: { replaces: '"TOOL_PRE"', newText: '"tool.pre"' },
  },
  {
    code: "HL009",
    file: "overwritten.ts",
    text: 'import { HookRegistry } from "@hooklens/runtime";\nconst registry = new HookRegistry({ hooks: { post_invoke: () => undefined } });\nregistry.postInvoke(() => undefined);\n',
    covers: "registry.postInvoke(() => undefined)",
    fix: null,
  },
  {
    code: "HL010",
    file: "preCreate.ts",
    text: 'import { HookRegistry } from "@hooklens/runtime";\nnew HookRegistry().preEventCreateHook(() => {\n  return { replaced: true };\n});\n',
    covers: "return { replaced: true };",
    fix: null,
  },
  {
    code: "HL011",
    file: "returnsError.ts",
    text: 'import { HookRegistry } from "@hooklens/runtime";\nnew HookRegistry().preInvoke(() => {\n  return new Error("blocked");\n});\n',
    covers: 'return new Error("blocked");',
    fix: { replaces: "return", newText: "throw" },
  },
];

const served = serveFixture();

/** Line and character of a text offset. */
function positionOf(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length - 1, character: before[before.length - 1]!.length };
}

describe.each(CASES)("$code through the language server", ({ code, file, text, covers, fix, severity = 2 }) => {
  const uri = () => pathToFileURL(served.fixture.path(file)).href;
  let diagnostic: Diagnostic;

  it("reports it where the rule says, with its docs link and a headline of at most 100 characters", async () => {
    await served.client.open(uri(), text, 5);
    const report = await served.client.pull(uri());
    expect(report.kind).toBe(DocumentDiagnosticReportKind.Full);
    const items = (report as FullDocumentDiagnosticReport).items;
    expect(items.map((d) => d.code)).toEqual([code]);
    diagnostic = items[0]!;
    const start = text.indexOf(covers);
    expect(diagnostic).toMatchObject({
      source: "hooklens",
      severity,
      range: { start: positionOf(text, start), end: positionOf(text, start + covers.length) },
      codeDescription: { href: expect.stringMatching(new RegExp(`^file://.*/docs/rules/${code}\\.md$`)) },
    });
    expect(String(diagnostic.message).length).toBeLessThanOrEqual(100);
  });

  it("answers a hover on it with the rule and its explanation, not the headline the editor already shows", async () => {
    const value = await served.client.hoverText(uri(), diagnostic.range.start);
    expect(value).toContain(`HookLens ${code}`);
    expect(value).toContain(`${code}.md`);
    expect(value).not.toContain(diagnostic.message);
    expect(value.split("\n\n").length).toBeGreaterThan(2);
  });

  it(fix ? "offers its quick fix pinned to the document version" : "offers no quick fix", async () => {
    const actions = await served.client.codeActions(uri(), diagnostic);
    // The rule's own fix is the preferred action; "Disable …" and "Show documentation" sit beside it.
    const quickFixes = actions.filter((a) => a.isPreferred && a.edit);
    if (!fix) {
      expect(quickFixes).toEqual([]);
      return;
    }
    expect(quickFixes).toHaveLength(1);
    const [change] = quickFixes[0]!.edit!.documentChanges as TextDocumentEdit[];
    expect(change!.textDocument).toEqual({ uri: uri(), version: 5 });
    const at = text.indexOf(fix.replaces, text.indexOf(covers));
    expect(change!.edits).toEqual([{ range: { start: positionOf(text, at), end: positionOf(text, at + fix.replaces.length) }, newText: fix.newText }]);
    expect(served.client.stderr).toBe("");
  });
});
