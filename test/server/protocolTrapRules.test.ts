import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { DocumentDiagnosticReportKind, type Diagnostic, type FullDocumentDiagnosticReport, type TextDocumentEdit } from "vscode-languageserver-protocol/node";
import { serveFixture } from "../helpers/lspClient.js";

// The rules for the remaining hook traps (HL012–HL015), through the bundled server as a child
// process over JSON-RPC, as an editor drives it.
const served = serveFixture();

/** Opens `text` as `name` in the fixture folder and pulls its diagnostics. */
async function open(name: string, text: string, version = 1): Promise<{ uri: string; items: Diagnostic[] }> {
  const uri = pathToFileURL(served.fixture.path(name)).href;
  await served.client.open(uri, text, version);
  return { uri, items: await pull(uri) };
}

async function pull(uri: string): Promise<Diagnostic[]> {
  const report = await served.client.pull(uri);
  expect(report.kind).toBe(DocumentDiagnosticReportKind.Full);
  return (report as FullDocumentDiagnosticReport).items;
}

describe("trap rules over JSON-RPC", () => {
  it("HL012: reports a marked handler that nothing registers, on the marker, and hovers it", async () => {
    const text = 'import { hook } from "@hooklens/runtime";\nconst audit = hook("tool.post")(() => undefined);\naudit();\n';
    const { uri, items } = await open("marker.ts", text);
    expect(items).toEqual([
      expect.objectContaining({
        code: "HL012",
        severity: 2,
        message: 'hook("tool.post") marks a handler that nothing registers, so it never runs',
        range: { start: { line: 1, character: 14 }, end: { line: 1, character: 31 } },
        codeDescription: { href: expect.stringMatching(/\/docs\/rules\/HL012\.md$/) },
      }),
    ]);
    expect(await served.client.hoverText(uri, { line: 1, character: 20 })).toContain("HookLens HL012");
    await served.client.change(uri, 2, text.replace("audit();", "export { audit };"));
    expect(await pull(uri)).toEqual([]);
  });

  it("HL013: reports a toolkit hook keyed by an alias, hovers it, and its quick fix leaves the file clean", async () => {
    const text = 'import { CodingToolkit } from "@hooklens/runtime";\nexport const kit = new CodingToolkit().pre("bash_tool", () => undefined);\n';
    const { uri, items } = await open("toolkit.ts", text, 4);
    const column = text.split("\n")[1]!.indexOf('"bash_tool"');
    expect(items).toEqual([
      expect.objectContaining({
        code: "HL013",
        source: "hooklens",
        severity: 2,
        range: { start: { line: 1, character: column }, end: { line: 1, character: column + 11 } },
        codeDescription: { href: expect.stringMatching(/\/docs\/rules\/HL013\.md$/) },
      }),
    ]);
    expect(await served.client.hoverText(uri, { line: 1, character: column + 3 })).toContain("HookLens HL013");
    // Other actions (suppressions, documentation) may be offered beside the fix.
    const action = (await served.client.codeActions(uri, items[0]!)).find((a) => a.title === 'Use the tool name "bash"');
    expect(action).toMatchObject({ kind: "quickfix", isPreferred: true });
    const [change] = action!.edit!.documentChanges as TextDocumentEdit[];
    expect(change!.textDocument).toEqual({ uri, version: 4 });
    expect(change!.edits).toEqual([{ range: items[0]!.range, newText: '"bash"' }]);
    const fixed = text.replace('"bash_tool"', '"bash"');
    await served.client.change(uri, 5, fixed);
    expect(await pull(uri)).toEqual([]);
  });

  it("HL014: reports a guardrail check that can return undefined, and hovers it", async () => {
    const text = [
      'import { GuardrailHook } from "@hooklens/runtime";',
      "export const guard = new GuardrailHook((_stage, payload) => {",
      '  if (payload === null) return "empty payload";',
      "});",
      "",
    ].join("\n");
    const { uri, items } = await open("guard.ts", text);
    expect(items).toEqual([
      expect.objectContaining({
        code: "HL014",
        severity: 2,
        message: expect.stringContaining("can return undefined"),
        range: { start: { line: 1, character: 39 }, end: { line: 1, character: 59 } },
        codeDescription: { href: expect.stringMatching(/\/docs\/rules\/HL014\.md$/) },
      }),
    ]);
    expect(await served.client.hoverText(uri, { line: 1, character: 45 })).toContain("HookLens HL014");
  });

  it("HL015: reports a counting hook in an Executor with approval, as information, and hovers it", async () => {
    const text = [
      'import { Executor, Hook, type Approval, type ToolBackend } from "@hooklens/runtime";',
      "declare const tools: ToolBackend;",
      "declare const approval: Approval;",
      "class Counter extends Hook { n = 0; beforeTool() { this.n++; } }",
      "export const executor = new Executor(tools, { hooks: [new Counter()], approval });",
      "",
    ].join("\n");
    const { uri, items } = await open("executor.ts", text);
    expect(items).toEqual([
      expect.objectContaining({
        code: "HL015",
        severity: 3,
        message: "Counter.beforeTool runs again when approval edits a call, so its side effects happen twice",
        range: { start: { line: 4, character: 54 }, end: { line: 4, character: 67 } },
        codeDescription: { href: expect.stringMatching(/\/docs\/rules\/HL015\.md$/) },
      }),
    ]);
    expect(await served.client.hoverText(uri, { line: 4, character: 60 })).toContain("HookLens HL015");
  });

  it("wrote nothing to stderr", () => {
    expect(served.client.stderr).toBe("");
  });
});
