import { spawn } from "node:child_process";
import { isAscii } from "node:buffer";
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DocumentDiagnosticRequest,
  InitializeRequest,
  StreamMessageReader,
  StreamMessageWriter,
  createProtocolConnection,
  type DocumentDiagnosticReport,
} from "vscode-languageserver-protocol/node";
import { COMPILE_CACHE_DIR_ENV } from "../../../server/src/compileCache.js";
import { SERVER_NODE_FLAGS } from "../../../server/src/launchOptions.js";
import { SERVER_BUNDLE_WRAPPER, SERVER_BUNDLE_WRAPPER_END } from "../../../server/src/serverBundle.js";
import { builtCli } from "../../helpers/builtCli.js";
import { REPO_ROOT, createFixture, type Fixture } from "../../helpers/fixtureProject.js";

// The entry point the extension and the bench start: it loads dist/server-main.cjs through the cache.
const SERVER = join(REPO_ROOT, "dist/server.js");
const AGENT = 'import { HookBus, HookPoint } from "@hooklens/runtime";\nnew HookBus().on(HookPoint.API_PRE_CALL, () => undefined);\n';

let fixture: Fixture;
let agent: string;
const scratch: string[] = [];
beforeAll(() => {
  builtCli(); // the same build writes dist/server.js and dist/server-main.cjs
  fixture = createFixture();
  agent = fixture.write("agent.ts", AGENT);
}, 300_000);
afterAll(() => {
  fixture.dispose();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function cacheDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "hooklens-compile-cache-test-"));
  scratch.push(dir);
  return dir;
}

/** Starts the server with `dir` as its compile cache, gets the agent's diagnostic codes, and shuts it down cleanly. */
async function diagnosticsWithCache(dir: string): Promise<string[]> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER, "--stdio"], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, [COMPILE_CACHE_DIR_ENV]: dir },
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  connection.onRequest("workspace/configuration", (params: { items: unknown[] }) => params.items.map(() => null));
  connection.onError(() => undefined);
  connection.listen();
  try {
    const rootUri = pathToFileURL(fixture.dir).href;
    await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri, workspaceFolders: [{ uri: rootUri, name: "fixture" }], capabilities: {} });
    await connection.sendNotification("initialized", {});
    const uri = pathToFileURL(agent).href;
    await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "typescript", version: 1, text: AGENT } });
    const report: DocumentDiagnosticReport = await connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } });
    await connection.sendRequest("shutdown");
    await connection.sendNotification("exit");
    expect(await exited).toBe(0);
    return report.kind === "full" ? report.items.map((d) => String(d.code)) : [];
  } finally {
    connection.dispose();
    child.kill();
  }
}

const cacheFiles = (dir: string) => readdirSync(dir).filter((name) => name.endsWith(".bin"));

describe("the server bundle's compile cache", { timeout: 300_000 }, () => {
  it("is written after the first analysis, private to the user, and used as it is by the next start", async () => {
    const dir = cacheDir();
    expect(await diagnosticsWithCache(dir)).toEqual(["HL001"]);
    const [file, ...others] = cacheFiles(dir);
    expect(others).toEqual([]);
    const written = statSync(join(dir, file!));
    expect(written.mode & 0o777).toBe(0o600);
    expect(written.size).toBeGreaterThan(1_000_000);

    // A cache V8 refused would be written again after the analysis; an accepted one is left as it is.
    expect(await diagnosticsWithCache(dir)).toEqual(["HL001"]);
    expect(cacheFiles(dir)).toEqual([file]);
    expect(statSync(join(dir, file!)).mtimeMs).toBe(written.mtimeMs);
  });

  it("compiles a bundle built to be compiled as read: one function expression, in ASCII", () => {
    const bytes = readFileSync(join(REPO_ROOT, "dist/server-main.cjs"));
    expect(isAscii(bytes)).toBe(true);
    const text = bytes.toString("latin1");
    expect(text.startsWith(SERVER_BUNDLE_WRAPPER)).toBe(true);
    expect(text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "").endsWith(SERVER_BUNDLE_WRAPPER_END)).toBe(true);
  });

  it("is not kept in a folder that others can write to, and the server works the same without it", async () => {
    const dir = cacheDir();
    chmodSync(dir, 0o777);
    expect(await diagnosticsWithCache(dir)).toEqual(["HL001"]);
    expect(cacheFiles(dir)).toEqual([]);
  });
});
