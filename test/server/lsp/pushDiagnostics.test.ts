import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocumentDiagnosticReportKind } from "vscode-languageserver-protocol/node";
import { PushDiagnostics } from "../../../server/src/lsp/pushDiagnostics.js";
import { createFixture, type Fixture } from "../../helpers/fixtureProject.js";
import { LspClient } from "../../helpers/lspClient.js";

const DORMANT = 'import { HookBus, HookPoint } from "@hooklens/runtime";\nnew HookBus().on(HookPoint.API_PRE_CALL, () => undefined);\n';
const CLEAN = 'import { HookBus, HookPoint } from "@hooklens/runtime";\nnew HookBus().on(HookPoint.TOOL_PRE, () => undefined);\n';

describe("the debounce (PushDiagnostics on its own, real timers)", () => {
  it("analyses a burst of 20 changes at most twice and publishes only the last version", async () => {
    let version = 0;
    const analysed: number[] = [];
    const published: (number | undefined)[] = [];
    let settle: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    const push = new PushDiagnostics({
      delayMs: 50,
      compute: async () => {
        const at = version;
        analysed.push(at);
        return at === version ? { version: at, diagnostics: [] } : undefined;
      },
      publish: (_uri, v) => {
        published.push(v);
        if (v === 20) settle();
      },
    });
    for (let i = 0; i < 20; i++) {
      version = i + 1;
      push.schedule("file:///a.ts");
    }
    await done;
    expect(analysed.length).toBeLessThanOrEqual(2);
    expect(analysed.at(-1)).toBe(20);
    expect(published).toEqual([20]);
    push.dispose();
  });

  it("publishes an empty list when a document closes, and nothing scheduled before runs after", async () => {
    const published: [string, number][] = [];
    const push = new PushDiagnostics({
      delayMs: 10,
      compute: async () => ({ version: 1, diagnostics: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: "m" }] }),
      publish: (uri, _v, diagnostics) => published.push([uri, diagnostics.length]),
    });
    push.schedule("file:///a.ts");
    push.clear("file:///a.ts");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(published).toEqual([["file:///a.ts", 0]]);
  });
});

// A client without pull diagnostics (Neovim 0.7, Sublime, Emacs): the bundled server publishes.
let fixture: Fixture;
let client: LspClient;
let capabilities: Record<string, unknown>;
let settings: Record<string, unknown> = {};

beforeAll(async () => {
  fixture = createFixture();
  const started = await LspClient.start({
    rootDir: fixture.dir,
    capabilities: { workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true }, didChangeConfiguration: { dynamicRegistration: true } } },
    configuration: (section) => (section === "hooklens" ? settings : null),
  });
  client = started.client;
  capabilities = started.initialize.capabilities as Record<string, unknown>;
});
afterAll(async () => {
  await client.stop();
  fixture.dispose();
});

describe("published diagnostics for clients that do not pull", () => {
  it("offers no pull diagnostics to such a client, and asks to watch sources and project files", async () => {
    expect(capabilities["diagnosticProvider"]).toBeUndefined();
    await client.waitFor(() => client.registrations.find((r) => r.method === "workspace/didChangeWatchedFiles"), "the watcher registration");
    expect(client.registrations.map((r) => r.method).sort()).toEqual(["workspace/didChangeConfiguration", "workspace/didChangeWatchedFiles"]);
  });

  it("publishes after open with codes, lines and the document version, and an empty list for a clean file", async () => {
    const uri = pathToFileURL(fixture.path("open.ts")).href;
    await client.open(uri, DORMANT, 3);
    const published = await client.waitFor(() => client.lastPublished(uri), "diagnostics for open.ts");
    expect(published.version).toBe(3);
    expect(published.diagnostics.map((d) => [d.code, d.range.start.line, d.severity])).toEqual([["HL001", 1, 2]]);
    const clean = pathToFileURL(fixture.path("clean.ts")).href;
    await client.open(clean, CLEAN);
    expect((await client.waitFor(() => client.lastPublished(clean), "diagnostics for clean.ts")).diagnostics).toEqual([]);
  });

  it("publishes the last of 20 quick changes (at most twice for the burst), and answers hovers and code actions from the same analysis", async () => {
    const uri = pathToFileURL(fixture.path("typing.ts")).href;
    await client.open(uri, CLEAN);
    await client.waitFor(() => client.lastPublished(uri), "the first publication");
    const before = client.published.filter((p) => p.uri === uri).length;
    for (let version = 2; version <= 21; version++) await client.change(uri, version, version === 21 ? DORMANT : `${CLEAN}// ${version}\n`);
    const last = await client.waitFor(() => (client.lastPublished(uri)?.version === 21 ? client.lastPublished(uri) : undefined), "version 21");
    // One publication when the burst is quicker than the quiet time; a stalled machine may split it in two.
    expect(client.published.filter((p) => p.uri === uri).length - before).toBeLessThanOrEqual(2);
    expect(last.diagnostics.map((d) => d.code)).toEqual(["HL001"]);
    expect(await client.hoverText(uri, { line: 1, character: 20 })).toContain("HookLens HL001");
    expect((await client.codeActions(uri, last.diagnostics[0]!)).map((a) => a.title)).toContain("Disable HL001 for this line");
    // An explicit pull still works from such a client, from the same cache.
    const report = await client.pull(uri);
    expect(report.kind === DocumentDiagnosticReportKind.Full && report.items.map((d) => d.code)).toEqual(["HL001"]);
  });

  it("clears a file's diagnostics when it closes", async () => {
    const uri = pathToFileURL(fixture.path("closing.ts")).href;
    await client.open(uri, DORMANT);
    await client.waitFor(() => client.lastPublished(uri)?.diagnostics.length, "diagnostics before closing");
    await client.connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
    await client.waitFor(() => client.lastPublished(uri)?.diagnostics.length === 0, "an empty list after closing");
  });

  it("re-publishes open files when the configuration changes", async () => {
    const uri = pathToFileURL(fixture.path("configured.ts")).href;
    await client.open(uri, DORMANT);
    await client.waitFor(() => client.lastPublished(uri)?.diagnostics.length === 1, "HL001 before the change");
    settings = { rules: { HL001: "off" } };
    await client.connection.sendNotification("workspace/didChangeConfiguration", { settings: null });
    await client.waitFor(() => client.lastPublished(uri)?.diagnostics.length === 0, "no HL001 once turned off");
    settings = {};
    await client.connection.sendNotification("workspace/didChangeConfiguration", { settings: null });
    await client.waitFor(() => client.lastPublished(uri)?.diagnostics.length === 1, "HL001 back");
  });

  it("re-publishes open files when a file they import changes on disk", async () => {
    fixture.write("points.ts", 'import { HookPoint } from "@hooklens/runtime";\nexport const POINT = HookPoint.TOOL_PRE;\n');
    const uri = pathToFileURL(fixture.path("importer.ts")).href;
    await client.open(uri, 'import { HookBus } from "@hooklens/runtime";\nimport { POINT } from "./points";\nnew HookBus().on(POINT, () => undefined);\n');
    await client.waitFor(() => client.lastPublished(uri), "the importer's first publication");
    expect(client.lastPublished(uri)!.diagnostics).toEqual([]);
    const path = fixture.write("points.ts", 'import { HookPoint } from "@hooklens/runtime";\nexport const POINT = HookPoint.API_PRE_CALL;\n');
    await client.connection.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: pathToFileURL(path).href, type: 2 }] });
    const published = await client.waitFor(() => (client.lastPublished(uri)?.diagnostics.length ? client.lastPublished(uri) : undefined), "HL001 after points.ts changed");
    expect(published.diagnostics.map((d) => d.code)).toEqual(["HL001"]);
  });
});
