import { spawn, type ChildProcess } from "node:child_process";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CodeActionRequest,
  DocumentDiagnosticReportKind,
  DocumentDiagnosticRequest,
  HoverRequest,
  InitializeRequest,
  StreamMessageReader,
  StreamMessageWriter,
  createProtocolConnection,
  type CodeAction,
  type Diagnostic,
  type FullDocumentDiagnosticReport,
  type ProtocolConnection,
  type TextDocumentEdit,
} from "vscode-languageserver-protocol/node";
import { bundleServer } from "../helpers/bundleServer.js";
import { createFixture, type Fixture } from "../helpers/fixtureProject.js";

// The rules for the remaining hook traps (HL012–HL015), through the bundled server as a child
// process over JSON-RPC, as an editor drives it.
let child: ChildProcess;
let connection: ProtocolConnection;
let fixture: Fixture;
let stderr = "";

beforeAll(async () => {
  const { server } = await bundleServer();
  fixture = createFixture();
  child = spawn(process.execPath, [server, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: pathToFileURL(fixture.dir).href,
    workspaceFolders: [{ uri: pathToFileURL(fixture.dir).href, name: "fixture" }],
    capabilities: {},
  });
  await connection.sendNotification("initialized", {});
});

afterAll(async () => {
  if (!connection) return;
  await connection.sendRequest("shutdown").catch(() => undefined);
  await connection.sendNotification("exit").catch(() => undefined);
  connection.dispose();
  if (child.exitCode === null) child.kill();
  fixture.dispose();
});

/** Opens `text` as `name` in the fixture folder and pulls its diagnostics. */
async function open(name: string, text: string, version = 1): Promise<{ uri: string; items: Diagnostic[] }> {
  const uri = pathToFileURL(fixture.path(name)).href;
  await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "typescript", version, text } });
  return { uri, items: await pull(uri) };
}

async function pull(uri: string): Promise<Diagnostic[]> {
  const report = await connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } });
  expect(report.kind).toBe(DocumentDiagnosticReportKind.Full);
  return (report as FullDocumentDiagnosticReport).items;
}

async function hoverText(uri: string, position: { line: number; character: number }): Promise<string> {
  const hover = await connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  return hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
}

async function codeActions(uri: string, diagnostic: Diagnostic): Promise<CodeAction[]> {
  return (await connection.sendRequest(CodeActionRequest.type, {
    textDocument: { uri },
    range: diagnostic.range,
    context: { diagnostics: [diagnostic] },
  })) as CodeAction[];
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
    expect(await hoverText(uri, { line: 1, character: 20 })).toContain("HookLens HL012");
    await connection.sendNotification("textDocument/didChange", {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: text.replace("audit();", "export { audit };") }],
    });
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
    expect(await hoverText(uri, { line: 1, character: column + 3 })).toContain("HookLens HL013");
    // Other actions (suppressions, documentation) may be offered beside the fix.
    const action = (await codeActions(uri, items[0]!)).find((a) => a.title === 'Use the tool name "bash"');
    expect(action).toMatchObject({ kind: "quickfix", isPreferred: true });
    const [change] = action!.edit!.documentChanges as TextDocumentEdit[];
    expect(change!.textDocument).toEqual({ uri, version: 4 });
    expect(change!.edits).toEqual([{ range: items[0]!.range, newText: '"bash"' }]);
    const fixed = text.replace('"bash_tool"', '"bash"');
    await connection.sendNotification("textDocument/didChange", { textDocument: { uri, version: 5 }, contentChanges: [{ text: fixed }] });
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
    expect(await hoverText(uri, { line: 1, character: 45 })).toContain("HookLens HL014");
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
    expect(await hoverText(uri, { line: 4, character: 60 })).toContain("HookLens HL015");
  });

  it("wrote nothing to stderr", () => {
    expect(stderr).toBe("");
  });
});
