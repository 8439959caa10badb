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
  type FullDocumentDiagnosticReport,
  type TextDocumentEdit,
  type ProtocolConnection,
} from "vscode-languageserver-protocol/node";
import { bundleServer } from "../helpers/bundleServer.js";
import { createFixture, type Fixture } from "../helpers/fixtureProject.js";

// The bundled server as a child process, driven over JSON-RPC exactly as an editor would.
let child: ChildProcess;
let connection: ProtocolConnection;
let fixture: Fixture;
let stderr = "";

const SOURCE = `import { HookBus, HookPoint } from "@hooklens/runtime";
const bus = new HookBus();
bus.on(HookPoint.API_PRE_CALL, () => undefined);
`;

beforeAll(async () => {
  const { server } = await bundleServer();
  fixture = createFixture();
  child = spawn(process.execPath, [server, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  connection.listen();
  const init = await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: pathToFileURL(fixture.dir).href,
    workspaceFolders: [{ uri: pathToFileURL(fixture.dir).href, name: "fixture" }],
    // A pulling client, as VS Code is (test/server/lsp/ covers clients that do not pull).
    capabilities: { textDocument: { diagnostic: {} } },
  });
  expect(init.capabilities.diagnosticProvider).toBeTruthy();
  await connection.sendNotification("initialized", {});
});

afterAll(async () => {
  await connection.sendRequest("shutdown").catch(() => undefined);
  await connection.sendNotification("exit").catch(() => undefined);
  connection.dispose();
  if (child.exitCode === null) child.kill();
  fixture.dispose();
});

async function pull(uri: string): Promise<FullDocumentDiagnosticReport> {
  const report = await connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } });
  expect(report.kind).toBe(DocumentDiagnosticReportKind.Full);
  return report as FullDocumentDiagnosticReport;
}

describe("language server over JSON-RPC", () => {
  const uri = () => pathToFileURL(fixture.path("agent.ts")).href;

  it("reports HL001 on the point argument of an opened document", async () => {
    await connection.sendNotification("textDocument/didOpen", { textDocument: { uri: uri(), languageId: "typescript", version: 1, text: SOURCE } });
    const report = await pull(uri());
    expect(report.items).toEqual([
      expect.objectContaining({
        code: "HL001",
        source: "hooklens",
        severity: 2,
        range: { start: { line: 2, character: 7 }, end: { line: 2, character: 29 } },
        codeDescription: { href: expect.stringMatching(/^file:\/\/.*\/docs\/rules\/HL001\.md$/) },
      }),
    ]);
    expect(report.items[0]!.message).toMatch(/API_PRE_CALL.*never runs/);
  });

  it("answers a hover over the flagged argument with the rule and its docs link", async () => {
    const hover = await connection.sendRequest(HoverRequest.type, { textDocument: { uri: uri() }, position: { line: 2, character: 12 } });
    const value = hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
    expect(value).toContain("HookLens HL001");
    expect(value).toContain("HL001.md");
  });

  it("still answers after the document becomes syntactically broken, and follows edits", async () => {
    const broken = SOURCE + "function ( {{{ \n const = ;\n";
    await connection.sendNotification("textDocument/didChange", { textDocument: { uri: uri(), version: 2 }, contentChanges: [{ text: broken }] });
    const report = await pull(uri());
    // One information diagnostic on the runtime import saying the file was not fully analysed, and the findings it still has.
    expect(report.items.map((d) => d.code)).toEqual([undefined, "HL001"]);
    expect(report.items[0]).toMatchObject({ severity: 3, message: expect.stringMatching(/^Not fully analysed: \d+ syntax errors/) });
    await connection.sendNotification("textDocument/didChange", { textDocument: { uri: uri(), version: 3 }, contentChanges: [{ text: "export const ok = 1;\n" }] });
    expect((await pull(uri())).items).toEqual([]);
  });

  it("says a plain file (no runtime import) with a syntax error was not fully analysed, on the error, until it is fixed", async () => {
    const plain = pathToFileURL(fixture.path("plain.ts")).href;
    const text = "export function add(a: number, b: number) {\n  return a + ;\n}\n";
    await connection.sendNotification("textDocument/didOpen", { textDocument: { uri: plain, languageId: "typescript", version: 1, text } });
    expect((await pull(plain)).items).toEqual([
      expect.objectContaining({
        severity: 3,
        source: "hooklens",
        range: { start: { line: 1, character: 13 }, end: { line: 1, character: 14 } },
        message: expect.stringMatching(/^Not fully analysed: a syntax error \(line 2: Expression expected\.\)/),
      }),
    ]);
    await connection.sendNotification("textDocument/didChange", { textDocument: { uri: plain, version: 2 }, contentChanges: [{ text: text.replace("a + ;", "a + b;") }] });
    expect((await pull(plain)).items).toEqual([]);
  });

  it("offers a quick fix pinned to the document version for HL003", async () => {
    const fixUri = pathToFileURL(fixture.path("stream.ts")).href;
    const text = 'import { HookRegistry } from "@hooklens/runtime";\nexport const r = new HookRegistry({ streamHandlers: { text: (chunk: unknown) => chunk } });\n';
    await connection.sendNotification("textDocument/didOpen", { textDocument: { uri: fixUri, languageId: "typescript", version: 7, text } });
    const [diagnostic] = (await pull(fixUri)).items;
    expect(diagnostic?.code).toBe("HL003");
    const actions = (await connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: fixUri },
      range: diagnostic!.range,
      context: { diagnostics: [diagnostic!] },
    })) as CodeAction[];
    expect(actions.filter((a) => a.isPreferred)).toHaveLength(1);
    expect(actions[0]).toMatchObject({ kind: "quickfix", isPreferred: true });
    const [change] = actions[0]!.edit!.documentChanges as TextDocumentEdit[];
    expect(change!.textDocument).toEqual({ uri: fixUri, version: 7 });
    const at = text.split("\n")[1]!.indexOf("chunk: unknown");
    expect(change!.edits).toEqual([{ range: { start: { line: 1, character: at }, end: { line: 1, character: at } }, newText: "_event: null, _chunkType: string, " }]);
  });

  it("reports HL005 on the early inclusion, with a hover and no quick fix", async () => {
    const trapUri = pathToFileURL(fixture.path("branches.ts")).href;
    const text =
      'import { Session } from "@hooklens/runtime";\nconst session = new Session();\nconst branch = session.newBranch();\nexport const bus = session.hooks;\nawait branch.act({ function: "search", arguments: {} });\n';
    await connection.sendNotification("textDocument/didOpen", { textDocument: { uri: trapUri, languageId: "typescript", version: 1, text } });
    const [diagnostic, ...rest] = (await pull(trapUri)).items;
    expect(rest).toEqual([]);
    expect(diagnostic).toMatchObject({ code: "HL005", severity: 2, range: { start: { line: 2, character: 15 }, end: { line: 2, character: 34 } } });
    const hover = await connection.sendRequest(HoverRequest.type, { textDocument: { uri: trapUri }, position: { line: 2, character: 25 } });
    const value = hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
    expect(value).toContain("HookLens HL005");
    const actions = await connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: trapUri },
      range: diagnostic!.range,
      context: { diagnostics: [diagnostic!] },
    });
    expect((actions as CodeAction[]).filter((a) => a.isPreferred)).toEqual([]);
  });

  it("returns an empty report for a document it was never given", async () => {
    expect((await pull(pathToFileURL(fixture.path("unknown.ts")).href)).items).toEqual([]);
    expect(stderr).toBe("");
  });
});
