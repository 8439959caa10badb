import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { StreamMessageReader, StreamMessageWriter, createMessageConnection, type MessageConnection } from "vscode-jsonrpc/node";
import { DocumentDiagnosticRequest, InitializeRequest, type DocumentDiagnosticReport } from "vscode-languageserver-protocol";
import { SERVER_NODE_FLAGS } from "../../../server/src/launchOptions.js";
import { BENCH_PROBE_ENV, BENCH_PROBE_METHOD, type BenchProbeReading } from "../../../server/src/lsp/benchProbe.js";

/**
 * The bundled server as a child process (with the Node flags every launcher uses), driven over
 * JSON-RPC on stdio like an editor: it answers
 * the server's own requests (progress tokens, configuration) and records the progress it shows.
 */
export class LspSession {
  readonly #child: ChildProcess;
  readonly #connection: MessageConnection;
  readonly #versions = new Map<string, number>();
  readonly startedAt = performance.now();
  /** `$/progress` kinds seen, in order ("begin", "report", "end"). */
  readonly progress: string[] = [];
  stderr = "";

  /** `extraNodeFlags`: more Node flags for the server (for example `--cpu-prof` to profile it). */
  constructor(serverPath: string, extraNodeFlags: readonly string[] = []) {
    this.#child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...extraNodeFlags, serverPath, "--stdio"], {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, [BENCH_PROBE_ENV]: "1" },
    });
    this.#child.stderr!.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.#connection = createMessageConnection(new StreamMessageReader(this.#child.stdout!), new StreamMessageWriter(this.#child.stdin!));
    this.#connection.onRequest((method: string, params: unknown) => {
      if (method === "workspace/configuration") return ((params as { items?: unknown[] }).items ?? []).map(() => null);
      return null;
    });
    this.#connection.onNotification((method: string, params: unknown) => {
      if (method === "$/progress") this.progress.push((params as { value?: { kind?: string } }).value?.kind ?? "?");
    });
    // vscode-jsonrpc hands `$/progress` to progress handlers, never to the notification handler above.
    this.#connection.onUnhandledProgress((params: { value?: { kind?: string } }) => this.progress.push(params.value?.kind ?? "?"));
    this.#connection.listen();
  }

  async initialize(rootDir: string): Promise<void> {
    const rootUri = pathToFileURL(rootDir).href;
    await this.#connection.sendRequest(InitializeRequest.method, {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: "bench" }],
      capabilities: {
        window: { workDoneProgress: true },
        textDocument: { diagnostic: { dynamicRegistration: false } },
      },
    });
    await this.#connection.sendNotification("initialized", {});
  }

  async open(path: string): Promise<string> {
    const text = readFileSync(path, "utf8");
    this.#versions.set(path, 1);
    await this.#connection.sendNotification("textDocument/didOpen", {
      textDocument: {
        uri: pathToFileURL(path).href,
        languageId: "typescript",
        version: 1,
        text,
      },
    });
    return text;
  }

  async change(path: string, text: string): Promise<void> {
    const version = (this.#versions.get(path) ?? 1) + 1;
    this.#versions.set(path, version);
    await this.#connection.sendNotification("textDocument/didChange", {
      textDocument: { uri: pathToFileURL(path).href, version },
      contentChanges: [{ text }],
    });
  }

  async close(path: string): Promise<void> {
    this.#versions.delete(path);
    await this.#connection.sendNotification("textDocument/didClose", {
      textDocument: { uri: pathToFileURL(path).href },
    });
  }

  /** Pulls the document's diagnostics and returns their codes (one per diagnostic). */
  async diagnostics(path: string): Promise<string[]> {
    const report: DocumentDiagnosticReport = await this.#connection.sendRequest(DocumentDiagnosticRequest.method, {
      textDocument: { uri: pathToFileURL(path).href },
    });
    if (report.kind !== "full") throw new Error(`the server answered an unchanged report for ${path}, which the bench never asks for`);
    return report.items.map((item) => String(item.code ?? ""));
  }

  probe(): Promise<BenchProbeReading> {
    return this.#connection.sendRequest(BENCH_PROBE_METHOD);
  }

  async dispose(): Promise<void> {
    await this.#connection.sendRequest("shutdown").catch(() => undefined);
    await this.#connection.sendNotification("exit").catch(() => undefined);
    // Let it exit by itself (so exit-time work such as a CPU profile completes) before killing it.
    if (this.#child.exitCode === null) {
      await new Promise<void>((done) => {
        const timer = setTimeout(done, 5000);
        this.#child.once("exit", () => {
          clearTimeout(timer);
          done();
        });
      });
    }
    this.#connection.dispose();
    if (this.#child.exitCode === null) this.#child.kill();
  }
}
