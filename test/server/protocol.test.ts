import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { DocumentDiagnosticReportKind, type FullDocumentDiagnosticReport, type TextDocumentEdit } from "vscode-languageserver-protocol/node";
import { serveFixture } from "../helpers/lspClient.js";

// The bundled server as a child process, driven over JSON-RPC exactly as an editor would.
// A pulling client, as VS Code is (test/server/lsp/ covers clients that do not pull).
const served = serveFixture({ capabilities: { textDocument: { diagnostic: {} } } });

const SOURCE = `import { HookBus, HookPoint } from "@hooklens/runtime";
const bus = new HookBus();
bus.on(HookPoint.API_PRE_CALL, () => undefined);
`;

async function pull(uri: string): Promise<FullDocumentDiagnosticReport> {
  const report = await served.client.pull(uri);
  expect(report.kind).toBe(DocumentDiagnosticReportKind.Full);
  return report as FullDocumentDiagnosticReport;
}

describe("language server over JSON-RPC", () => {
  it("announces pull diagnostics to a pulling client", () => {
    expect(served.initialize.capabilities.diagnosticProvider).toBeTruthy();
  });

  const uri = () => pathToFileURL(served.fixture.path("agent.ts")).href;

  it("reports HL001 on the point argument of an opened document", async () => {
    await served.client.open(uri(), SOURCE);
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
    const value = await served.client.hoverText(uri(), { line: 2, character: 12 });
    expect(value).toContain("HookLens HL001");
    expect(value).toContain("HL001.md");
  });

  it("still answers after the document becomes syntactically broken, and follows edits", async () => {
    const broken = SOURCE + "function ( {{{ \n const = ;\n";
    await served.client.change(uri(), 2, broken);
    const report = await pull(uri());
    // One information diagnostic on the runtime import saying the file was not fully analysed, and the findings it still has.
    expect(report.items.map((d) => d.code)).toEqual([undefined, "HL001"]);
    expect(report.items[0]).toMatchObject({ severity: 3, message: expect.stringMatching(/^Not fully analysed: \d+ syntax errors/) });
    await served.client.change(uri(), 3, "export const ok = 1;\n");
    expect((await pull(uri())).items).toEqual([]);
  });

  it("says a plain file (no runtime import) with a syntax error was not fully analysed, on the error, until it is fixed", async () => {
    const plain = pathToFileURL(served.fixture.path("plain.ts")).href;
    const text = "export function add(a: number, b: number) {\n  return a + ;\n}\n";
    await served.client.open(plain, text);
    expect((await pull(plain)).items).toEqual([
      expect.objectContaining({
        severity: 3,
        source: "hooklens",
        range: { start: { line: 1, character: 13 }, end: { line: 1, character: 14 } },
        message: expect.stringMatching(/^Not fully analysed: a syntax error \(line 2: Expression expected\.\)/),
      }),
    ]);
    await served.client.change(plain, 2, text.replace("a + ;", "a + b;"));
    expect((await pull(plain)).items).toEqual([]);
  });

  it("offers a quick fix pinned to the document version for HL003", async () => {
    const fixUri = pathToFileURL(served.fixture.path("stream.ts")).href;
    const text = 'import { HookRegistry } from "@hooklens/runtime";\nexport const r = new HookRegistry({ streamHandlers: { text: (chunk: unknown) => chunk } });\n';
    await served.client.open(fixUri, text, 7);
    const [diagnostic] = (await pull(fixUri)).items;
    expect(diagnostic?.code).toBe("HL003");
    const actions = await served.client.codeActions(fixUri, diagnostic!);
    expect(actions.filter((a) => a.isPreferred)).toHaveLength(1);
    expect(actions[0]).toMatchObject({ kind: "quickfix", isPreferred: true });
    const [change] = actions[0]!.edit!.documentChanges as TextDocumentEdit[];
    expect(change!.textDocument).toEqual({ uri: fixUri, version: 7 });
    const at = text.split("\n")[1]!.indexOf("chunk: unknown");
    expect(change!.edits).toEqual([{ range: { start: { line: 1, character: at }, end: { line: 1, character: at } }, newText: "_event: null, _chunkType: string, " }]);
  });

  it("reports HL005 on the early inclusion, with a hover and no quick fix", async () => {
    const trapUri = pathToFileURL(served.fixture.path("branches.ts")).href;
    const text =
      'import { Session } from "@hooklens/runtime";\nconst session = new Session();\nconst branch = session.newBranch();\nexport const bus = session.hooks;\nawait branch.act({ function: "search", arguments: {} });\n';
    await served.client.open(trapUri, text);
    const [diagnostic, ...rest] = (await pull(trapUri)).items;
    expect(rest).toEqual([]);
    expect(diagnostic).toMatchObject({ code: "HL005", severity: 2, range: { start: { line: 2, character: 15 }, end: { line: 2, character: 34 } } });
    expect(await served.client.hoverText(trapUri, { line: 2, character: 25 })).toContain("HookLens HL005");
    expect((await served.client.codeActions(trapUri, diagnostic!)).filter((a) => a.isPreferred)).toEqual([]);
  });

  it("returns an empty report for a document it was never given", async () => {
    expect((await pull(pathToFileURL(served.fixture.path("unknown.ts")).href)).items).toEqual([]);
    expect(served.client.stderr).toBe("");
  });
});
