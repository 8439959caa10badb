import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Socket } from "node:net";
import {
  IPCMessageReader,
  IPCMessageWriter,
  InitializeRequest,
  SocketMessageReader,
  SocketMessageWriter,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  createProtocolConnection,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";
import { SERVER_HEAP_LIMIT_MB, SERVER_NODE_FLAGS } from "../../../server/src/launchOptions.js";
import { BENCH_PROBE_ENV, BENCH_PROBE_METHOD, type BenchProbeReading } from "../../../server/src/lsp/benchProbe.js";
import { builtCli } from "../../helpers/builtCli.js";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";

// The `hooklens-language-server` bin as editors start it: from the repository after the set-up
// (npx), and from a globally installed tarball on a machine without this repository or VS Code.
const BIN = join(REPO_ROOT, "node_modules/.bin/hooklens-language-server");
const VERSION = (JSON.parse(execFileSync(process.execPath, ["-p", "JSON.stringify(require('./server/package.json'))"], { cwd: REPO_ROOT, encoding: "utf8" })) as { version: string }).version;

let scratch: string;
beforeAll(() => {
  builtCli(); // the same build writes server/dist/server.cjs, which the bin loads
  scratch = mkdtempSync(join(tmpdir(), "hooklens-bin-"));
}, 300_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Session {
  child: ChildProcess;
  connection: ProtocolConnection;
  exited: Promise<number | null>;
  published: PublishDiagnosticsParams[];
}

/** Starts a server command over stdio and initializes it; `processId` is the client's process. */
async function startServer(command: string, args: string[], options: { cwd?: string; processId?: number; env?: NodeJS.ProcessEnv } = {}): Promise<Session> {
  const child = spawn(command, args, { cwd: options.cwd ?? scratch, stdio: ["pipe", "pipe", "pipe"], env: options.env ?? process.env });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const published: PublishDiagnosticsParams[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => void published.push(params));
  connection.onRequest("workspace/configuration", () => [null]);
  connection.onError(() => undefined);
  connection.listen();
  const result = await connection.sendRequest(InitializeRequest.type, { processId: options.processId ?? process.pid, rootUri: null, capabilities: {} });
  expect(result.serverInfo).toEqual({ name: "hooklens", version: VERSION });
  await connection.sendNotification("initialized", {});
  return { child, connection, exited, published };
}

async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the bin's command line", () => {
  it("prints its version and its usage, and refuses to start without a transport", () => {
    expect(spawnSync(BIN, ["--version"], { encoding: "utf8" }).stdout.trim()).toBe(VERSION);
    const help = spawnSync(BIN, ["--help"], { encoding: "utf8" });
    expect(help.status).toBe(0);
    for (const option of ["--stdio", "--node-ipc", "--socket=<port>", "--version"]) expect(help.stdout).toContain(option);
    const bare = spawnSync(BIN, [], { encoding: "utf8" });
    expect(bare.status).toBe(2);
    expect(bare.stderr).toContain("--stdio");
  });

  it("starts through `npx --no-install` in the repository, as the README's set-up leaves it", async () => {
    const session = await startServer("npx", ["--no-install", "hooklens-language-server", "--stdio"], { cwd: REPO_ROOT });
    await session.connection.sendRequest("shutdown");
    await session.connection.sendNotification("exit");
    expect(await session.exited).toBe(0);
  });
});

describe("the other transports vscode-languageserver offers", () => {
  it("--node-ipc: initializes over Node's IPC channel", async () => {
    const child = spawn(process.execPath, [join(REPO_ROOT, "server/bin/hooklens-language-server.cjs"), "--node-ipc"], { stdio: ["ignore", "ignore", "ignore", "ipc"] });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const connection = createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    connection.listen();
    const result = await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} });
    expect(result.serverInfo?.name).toBe("hooklens");
    await connection.sendRequest("shutdown");
    await connection.sendNotification("exit");
    expect(await exited).toBe(0);
  });

  it("--socket=<port>: connects to the client listening on that port", async () => {
    const accepted = new Promise<Socket>((resolve) => {
      const server = createServer((socket) => {
        server.close();
        resolve(socket);
      });
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        const child = spawn(BIN, [`--socket=${port}`], { stdio: "ignore" });
        child.unref();
      });
    });
    const socket = await accepted;
    const connection = createProtocolConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
    connection.listen();
    const result = await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} });
    expect(result.serverInfo?.name).toBe("hooklens");
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    await connection.sendRequest("shutdown");
    await connection.sendNotification("exit");
    await closed;
    connection.dispose();
  });
});

describe("memory", () => {
  it("runs the server under the launch heap limit, however the bin was started", async () => {
    const limitOf = async (command: string, args: string[]): Promise<{ limitMb: number; execArgv: string[] }> => {
      const session = await startServer(command, args, { env: { ...process.env, [BENCH_PROBE_ENV]: "1" } });
      const reading: BenchProbeReading = await session.connection.sendRequest(BENCH_PROBE_METHOD);
      await session.connection.sendRequest("shutdown");
      await session.connection.sendNotification("exit");
      expect(await session.exited).toBe(0);
      return { limitMb: reading.heapLimitBytes / 2 ** 20, execArgv: reading.execArgv };
    };
    // Node's own default here is far above the server's limit, so the figure shows the flag applied.
    const nodeDefault = Number(execFileSync(process.execPath, ["-p", "require('v8').getHeapStatistics().heap_size_limit"], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } })) / 2 ** 20;
    expect(nodeDefault).toBeGreaterThan(SERVER_HEAP_LIMIT_MB * 1.5);
    // Started as a plain `node bin` (no flags) and through the npm-linked bin.
    for (const [command, args] of [
      [process.execPath, [join(REPO_ROOT, "server/bin/hooklens-language-server.cjs"), "--stdio"]],
      [BIN, ["--stdio"]],
    ] as const) {
      const { limitMb, execArgv } = await limitOf(command, [...args]);
      expect(limitMb).toBeGreaterThanOrEqual(SERVER_HEAP_LIMIT_MB);
      expect(limitMb).toBeLessThan(SERVER_HEAP_LIMIT_MB * 1.3);
      // The GC's growing factor too (no figure shows it): every launch flag reaches the server.
      expect(execArgv).toEqual(expect.arrayContaining([...SERVER_NODE_FLAGS]));
    }
  });
});

describe("lifecycle", () => {
  it("ends promptly on shutdown and exit, with code 0", async () => {
    const session = await startServer(BIN, ["--stdio"]);
    await session.connection.sendRequest("shutdown");
    const sent = performance.now();
    await session.connection.sendNotification("exit");
    expect(await session.exited).toBe(0);
    // Idle it takes milliseconds; the bound only tells "exited by itself" from "waited out a
    // timer or the client's kill", with room for a loaded machine.
    expect(performance.now() - sent).toBeLessThan(10_000);
  });

  it("answers an unknown request with MethodNotFound and keeps serving", async () => {
    const session = await startServer(BIN, ["--stdio"]);
    await expect(session.connection.sendRequest("hooklens/noSuchRequest", {})).rejects.toMatchObject({ code: -32601 });
    await expect(session.connection.sendRequest("shutdown")).resolves.toBeNull();
    await session.connection.sendNotification("exit");
    await session.exited;
  });

  it("exits on its own when its standard input closes", async () => {
    const session = await startServer(BIN, ["--stdio"]);
    session.child.stdin!.end();
    expect(await session.exited).not.toBeNull();
  });

  it("exits on its own when the client process named in initialize dies", async () => {
    const client = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    const session = await startServer(BIN, ["--stdio"], { processId: client.pid! });
    client.kill();
    expect(await session.exited).not.toBeNull();
    session.connection.dispose();
  });
});

describe("installed from the packed tarball, without the repository", () => {
  it("npm pack + npm install -g give a bin that starts, analyses a file and links the installed rule pages", async () => {
    execFileSync("npm", ["pack", "--pack-destination", scratch], { cwd: join(REPO_ROOT, "server"), stdio: "pipe" });
    const tarball = join(scratch, readdirSync(scratch).find((f) => f.endsWith(".tgz"))!);
    const prefix = join(scratch, "prefix");
    execFileSync("npm", ["install", "-g", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", tarball], { cwd: scratch, stdio: "pipe" });

    const project = mkdtempSync(join(scratch, "project-"));
    const file = join(project, "agent.ts");
    writeFileSync(file, 'import { HookBus, HookPoint } from "@hooklens/runtime";\nnew HookBus().on(HookPoint.API_PRE_CALL, () => undefined);\n');
    const session = await startServer(join(prefix, "bin", "hooklens-language-server"), ["--stdio"], { cwd: project });
    const uri = pathToFileURL(file).href;
    await session.connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "typescript", version: 1, text: readFileSync(file, "utf8") } });
    const published = await until(() => session.published.find((p) => p.uri === uri), "published diagnostics from the installed server");
    // The project has no @hooklens/runtime installed: the server still finds HL001 and says, on the
    // import, that rules needing the runtime's types may miss problems.
    expect(published.diagnostics.map((d) => d.code)).toEqual([undefined, "HL001"]);
    expect(published.diagnostics[0]).toMatchObject({ severity: 3, message: expect.stringContaining('"@hooklens/runtime" cannot be resolved') });
    const href = published.diagnostics[1]!.codeDescription!.href;
    expect(href.startsWith(pathToFileURL(prefix).href)).toBe(true);
    expect(href).toMatch(/\/docs\/rules\/HL001\.md$/);
    await session.connection.sendRequest("shutdown");
    await session.connection.sendNotification("exit");
    expect(await session.exited).toBe(0);
    // The CLI of the same install: `check` loads the analyzer's own bundle (check.cjs) beside the CLI's.
    const checked = spawnSync(join(prefix, "bin", "hooklens"), ["check", "agent.ts"], { cwd: project, encoding: "utf8" });
    expect(checked.stdout).toContain("HL001");
    expect(checked.status).toBe(1);
  }, 240_000);
});
