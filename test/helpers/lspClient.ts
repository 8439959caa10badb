import { spawn, type ChildProcess } from "node:child_process";
import { pathToFileURL } from "node:url";
import {
  CodeActionRequest,
  ConfigurationRequest,
  DocumentDiagnosticRequest,
  HoverRequest,
  InitializeRequest,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  StreamMessageReader,
  StreamMessageWriter,
  createProtocolConnection,
  type ClientCapabilities,
  type CodeAction,
  type Diagnostic,
  type DocumentDiagnosticReport,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type Registration,
} from "vscode-languageserver-protocol/node";
import { afterAll, beforeAll } from "vitest";
import { bundleServer } from "./bundleServer.js";
import { createFixture, type Fixture } from "./fixtureProject.js";

export interface LspClientOptions {
  capabilities?: ClientCapabilities;
  initializationOptions?: unknown;
  /** What the client answers to workspace/configuration (per item); absent = null, as editors without settings do. */
  configuration?: (section: string | undefined, scopeUri: string | undefined) => unknown;
  rootDir: string;
  /** The server's command line after the bundle; defaults to `--stdio`. */
  serverArgs?: string[];
  /** The server to run; defaults to the test run's bundle of the sources (a built one: `dist/server.js`). */
  server?: string;
}

/**
 * The bundled server as a child process, driven over JSON-RPC as an editor drives it: it records
 * every published diagnostics notification, registration and log message, and answers
 * workspace/configuration from `configuration`.
 */
export class LspClient {
  readonly child: ChildProcess;
  readonly connection: ProtocolConnection;
  readonly published: PublishDiagnosticsParams[] = [];
  readonly registrations: Registration[] = [];
  readonly logs: string[] = [];
  stderr = "";
  #configuration: LspClientOptions["configuration"];
  readonly #listeners = new Set<() => void>();

  private constructor(server: string, options: LspClientOptions) {
    this.#configuration = options.configuration;
    this.child = spawn(process.execPath, [server, ...(options.serverArgs ?? ["--stdio"])], { stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr!.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.connection = createProtocolConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.connection.onNotification(PublishDiagnosticsNotification.type, (params) => this.#record(() => this.published.push(params)));
    this.connection.onNotification("window/logMessage", (params: { message: string }) => this.#record(() => this.logs.push(params.message)));
    this.connection.onRequest(RegistrationRequest.type, (params) => this.#record(() => this.registrations.push(...params.registrations)));
    this.connection.onRequest(ConfigurationRequest.type, (params) => params.items.map((item) => this.#configuration?.(item.section, item.scopeUri) ?? null));
    this.connection.listen();
  }

  static async start(options: LspClientOptions): Promise<{ client: LspClient; initialize: InitializeResult }> {
    const client = new LspClient(options.server ?? (await bundleServer()).server, options);
    const rootUri = pathToFileURL(options.rootDir).href;
    const initialize = await client.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: "fixture" }],
      capabilities: options.capabilities ?? {},
      initializationOptions: options.initializationOptions,
    });
    await client.connection.sendNotification("initialized", {});
    return { client, initialize };
  }

  /** Changes what workspace/configuration answers from now on (then send didChangeConfiguration). */
  setConfiguration(configuration: LspClientOptions["configuration"]): void {
    this.#configuration = configuration;
  }

  async open(uri: string, text: string, version = 1): Promise<void> {
    await this.connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "typescript", version, text } });
  }

  async change(uri: string, version: number, text: string): Promise<void> {
    await this.connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text }] });
  }

  async pull(uri: string, previousResultId?: string): Promise<DocumentDiagnosticReport> {
    return this.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri }, previousResultId });
  }

  async pullItems(uri: string): Promise<Diagnostic[]> {
    const report = await this.pull(uri);
    if (report.kind !== "full") throw new Error(`expected a full report, got ${report.kind}`);
    return report.items;
  }

  async hoverText(uri: string, position: { line: number; character: number }): Promise<string> {
    const hover = await this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
    return hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
  }

  async codeActions(uri: string, diagnostic: Diagnostic): Promise<CodeAction[]> {
    return (await this.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: diagnostic.range, context: { diagnostics: [diagnostic] } })) as CodeAction[];
  }

  /** Resolves once `probe` returns a value, checked now and after every notification; never sleeps. */
  // The limit only turns a hang into a readable failure before the test's own 180 s limit; a loaded machine needs minutes.
  waitFor<T>(probe: () => T | undefined | false, what: string, timeoutMs = 150_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = probe();
        if (value === undefined || value === false) return false;
        cleanup();
        resolve(value);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${what}; published: ${JSON.stringify(this.published.map((p) => [p.uri.replace(/^.*\//, ""), p.version, p.diagnostics.length]))}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.#listeners.delete(listener);
      };
      const listener = () => void check();
      if (check()) return;
      this.#listeners.add(listener);
    });
  }

  /** The latest diagnostics published for `uri` (undefined before the first). */
  lastPublished(uri: string): PublishDiagnosticsParams | undefined {
    return this.published.filter((p) => p.uri === uri).at(-1);
  }

  /** Ends the session politely and resolves with the server's exit code. */
  async stop(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => (this.child.exitCode !== null ? resolve(this.child.exitCode) : this.child.once("exit", (code) => resolve(code))));
    await this.connection.sendRequest("shutdown").catch(() => undefined);
    await this.connection.sendNotification("exit").catch(() => undefined);
    const code = await Promise.race([exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), 5_000))]);
    this.connection.dispose();
    if (this.child.exitCode === null) this.child.kill();
    return code;
  }

  #record(action: () => unknown): void {
    action();
    for (const listener of [...this.#listeners]) listener();
  }
}

/** What `serveFixture` gives a test file; read it inside tests (it is filled in by `beforeAll`). */
export interface ServedFixture {
  readonly client: LspClient;
  readonly fixture: Fixture;
  readonly initialize: InitializeResult;
}

/**
 * The bundled server on a fresh fixture folder for one test file: started before its tests,
 * stopped and the folder removed after.
 */
export function serveFixture(options: Omit<LspClientOptions, "rootDir"> = {}): ServedFixture {
  let served: { client: LspClient; fixture: Fixture; initialize: InitializeResult } | undefined;
  beforeAll(async () => {
    const fixture = createFixture();
    served = { fixture, ...(await LspClient.start({ ...options, rootDir: fixture.dir })) };
  });
  afterAll(async () => {
    await served?.client.stop();
    served?.fixture.dispose();
  });
  const current = () => {
    if (!served) throw new Error("serveFixture: read the client inside a test, after beforeAll");
    return served;
  };
  return {
    get client() {
      return current().client;
    },
    get fixture() {
      return current().fixture;
    },
    get initialize() {
      return current().initialize;
    },
  };
}
