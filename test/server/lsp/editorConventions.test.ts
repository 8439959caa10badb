import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocumentDiagnosticReportKind, ShowDocumentRequest, type CodeAction, type Diagnostic, type TextDocumentEdit } from "vscode-languageserver-protocol/node";
import { createFixture, type Fixture } from "../../helpers/fixtureProject.js";
import { LspClient } from "../../helpers/lspClient.js";

// What ESLint users expect, through the bundled server as a pulling client (like VS Code) drives it:
// suppression code actions, documentation, settings through workspace/configuration, run on save.
let fixture: Fixture;
let client: LspClient;
let settings: Record<string, unknown> = {};
let documentsShown: string[] = [];

const STREAM = 'import { HookRegistry } from "@hooklens/runtime";\nexport const registry = new HookRegistry({ streamHandlers: { text: (chunk: unknown) => chunk } });\n';
const TOOLKIT = 'import { CodingToolkit } from "@hooklens/runtime";\nexport const kit = new CodingToolkit().pre("bash_tool", () => undefined);\n';
const DORMANT = 'import { HookBus, HookPoint } from "@hooklens/runtime";\nnew HookBus().on(HookPoint.API_PRE_CALL, () => undefined);\n';

beforeAll(async () => {
  fixture = createFixture();
  ({ client } = await LspClient.start({
    rootDir: fixture.dir,
    capabilities: {
      textDocument: { diagnostic: {} },
      workspace: { configuration: true, diagnostics: { refreshSupport: true }, didChangeConfiguration: { dynamicRegistration: true } },
      window: { showDocument: { support: true } },
    },
    configuration: (section) => (section === "hooklens" ? settings : null),
  }));
  client.connection.onRequest("workspace/diagnostic/refresh", () => null);
  client.connection.onRequest(ShowDocumentRequest.type, (params) => {
    documentsShown.push(params.uri);
    return { success: true };
  });
});
afterAll(async () => {
  await client.stop();
  fixture.dispose();
});

let nextFile = 0;
async function openFile(text: string): Promise<{ uri: string; items: Diagnostic[] }> {
  const uri = pathToFileURL(fixture.path(`file${++nextFile}.ts`)).href;
  await client.open(uri, text);
  return { uri, items: await client.pullItems(uri) };
}

/** The text after applying a code action's single-document edit. */
function applyAction(text: string, action: CodeAction): string {
  const [change] = action.edit!.documentChanges as TextDocumentEdit[];
  const lines = text.split("\n");
  const offset = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const edits = change!.edits.map((e) => ({ range: e.range, newText: "newText" in e ? e.newText : "" }));
  return edits.sort((a, b) => offset(b.range.start) - offset(a.range.start)).reduce((t, e) => t.slice(0, offset(e.range.start)) + e.newText + t.slice(offset(e.range.end)), text);
}

async function changeConfiguration(next: Record<string, unknown>): Promise<void> {
  settings = next;
  await client.connection.sendNotification("workspace/didChangeConfiguration", { settings: null });
}

describe("code actions on every diagnostic", () => {
  it("offers the quick fix first (preferred), then disable for the line, for the file, and the documentation", async () => {
    const { uri, items } = await openFile(STREAM);
    const actions = await client.codeActions(uri, items[0]!);
    expect(actions.map((a) => [a.title, a.isPreferred ?? false])).toEqual([
      [expect.stringContaining("Declare the (event, chunkType) parameters"), true],
      ["Disable HL003 for this line", false],
      ["Disable HL003 for this file", false],
      ["Show documentation for HL003", false],
    ]);
    expect(actions.every((a) => a.kind === "quickfix" && a.diagnostics?.[0]?.code === "HL003")).toBe(true);
  });

  it("'Disable for this line' inserts an indented next-line comment that silences the diagnostic", async () => {
    const text = 'import { HookBus, HookPoint } from "@hooklens/runtime";\nif (process.env.X) {\n  new HookBus().on(HookPoint.API_PRE_CALL, () => undefined);\n}\n';
    const { uri, items } = await openFile(text);
    const action = (await client.codeActions(uri, items[0]!)).find((a) => a.title === "Disable HL001 for this line")!;
    const [change] = action.edit!.documentChanges as TextDocumentEdit[];
    expect(change!.textDocument).toEqual({ uri, version: 1 });
    const silenced = applyAction(text, action);
    expect(silenced.split("\n")[2]).toBe("  // hooklens-disable-next-line HL001");
    await client.change(uri, 2, silenced);
    expect(await client.pullItems(uri)).toEqual([]);
  });

  it("'Disable for this line' adds the code to a next-line comment already there", async () => {
    const text = `import { HookBus, HookPoint } from "@hooklens/runtime";\n// hooklens-disable-next-line HL003 -- reviewed\nnew HookBus().on(HookPoint.API_PRE_CALL, () => undefined);\n`;
    const { uri, items } = await openFile(text);
    const action = (await client.codeActions(uri, items[0]!)).find((a) => a.title === "Disable HL001 for this line")!;
    expect(applyAction(text, action).split("\n")[1]).toBe("// hooklens-disable-next-line HL003, HL001 -- reviewed");
  });

  it("'Disable for this file' puts a disable comment on the first line, or extends the one there", async () => {
    const { uri, items } = await openFile(DORMANT);
    const action = (await client.codeActions(uri, items[0]!)).find((a) => a.title === "Disable HL001 for this file")!;
    const silenced = applyAction(DORMANT, action);
    expect(silenced.startsWith("/* hooklens-disable HL001 */\nimport")).toBe(true);
    await client.change(uri, 2, silenced);
    expect(await client.pullItems(uri)).toEqual([]);

    const withComment = `/* hooklens-disable HL004 */\n${DORMANT}`;
    const second = await openFile(withComment);
    const extend = (await client.codeActions(second.uri, second.items[0]!)).find((a) => a.title === "Disable HL001 for this file")!;
    expect(applyAction(withComment, extend).split("\n")[0]).toBe("/* hooklens-disable HL004, HL001 */");
  });

  it("'Show documentation' opens the rule's page through window/showDocument in a client without HookLens's own command", async () => {
    const { uri, items } = await openFile(DORMANT);
    const action = (await client.codeActions(uri, items[0]!)).find((a) => a.title === "Show documentation for HL001")!;
    expect(action.command).toMatchObject({ command: "hooklens.showRuleDocumentation", arguments: ["HL001", expect.stringMatching(/^file:.*\/docs\/rules\/HL001\.md$/)] });
    documentsShown = [];
    await client.connection.sendRequest("workspace/executeCommand", { command: action.command!.command, arguments: action.command!.arguments });
    expect(documentsShown).toEqual([action.command!.arguments![1]]);
  });
});

describe("hover", () => {
  it("shows the rule, its explanation and its page, not the headline the editor already shows", async () => {
    const { uri, items } = await openFile(TOOLKIT);
    const hover = await client.hoverText(uri, { line: 1, character: items[0]!.range.start.character + 2 });
    expect(hover).toContain("HookLens HL013");
    expect(hover).toContain("looks up its hooks under");
    expect(hover).toMatch(/\[Rule documentation\]\(file:.*HL013\.md\)/);
    expect(hover).not.toContain(items[0]!.message);
  });
});

describe("settings from workspace/configuration", () => {
  it("turns a rule off, changes a severity, and re-validates when the configuration changes", async () => {
    const { uri, items } = await openFile(DORMANT);
    expect(items.map((d) => [d.code, d.severity])).toEqual([["HL001", 2]]);
    const refreshed = new Promise<void>((resolve) => client.connection.onRequest("workspace/diagnostic/refresh", () => (resolve(), null)));
    await changeConfiguration({ rules: { HL001: "off" } });
    await refreshed;
    expect(await client.pullItems(uri)).toEqual([]);
    await changeConfiguration({ rules: { HL001: "error" } });
    expect((await client.pullItems(uri)).map((d) => [d.code, d.severity])).toEqual([["HL001", 1]]);
    await changeConfiguration({ enable: false });
    expect(await client.pullItems(uri)).toEqual([]);
    expect(await client.hoverText(uri, { line: 1, character: 20 })).toBe("");
    await changeConfiguration({});
    expect(await client.pullItems(uri)).toHaveLength(1);
  });

  it("logs an unknown key or a wrong type once and applies the rest", async () => {
    await changeConfiguration({ rules: { HL001: "loud" }, colour: "red", run: "onType" });
    const first = await openFile(DORMANT);
    const second = await openFile(DORMANT);
    expect(first.items.map((d) => d.code)).toEqual(["HL001"]);
    expect(second.items.map((d) => d.code)).toEqual(["HL001"]);
    expect(client.logs.filter((l) => l.includes("colour"))).toHaveLength(1);
    expect(client.logs.filter((l) => l.includes("rules.HL001"))).toHaveLength(1);
    await changeConfiguration({});
  });

  it("with run: onSave, keeps the last report while the text is unsaved and analyses again on save", async () => {
    await changeConfiguration({ run: "onSave" });
    const uri = pathToFileURL(fixture.path("saved.ts")).href;
    await client.open(uri, DORMANT);
    const first = await client.pull(uri);
    expect(first.kind === "full" && first.items.map((d) => d.code)).toEqual(["HL001"]);
    await client.change(uri, 2, "export const clean = 1;\n");
    const unsaved = await client.pull(uri, first.resultId);
    expect(unsaved).toEqual({ kind: DocumentDiagnosticReportKind.Unchanged, resultId: first.resultId });
    await client.connection.sendNotification("textDocument/didSave", { textDocument: { uri } });
    expect(await client.pullItems(uri)).toEqual([]);
    await changeConfiguration({});
  });
});

describe("the per-document cache", () => {
  it("never answers with an older text's result when a version number arrives twice with different text", async () => {
    const { uri, items } = await openFile(DORMANT);
    expect(items).toHaveLength(1);
    await client.change(uri, 1, "export const clean = 1;\n");
    expect(await client.pullItems(uri)).toEqual([]);
  });
});
