import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import {
  DocumentDiagnosticRequest,
  InitializeRequest,
  StreamMessageReader,
  StreamMessageWriter,
  createProtocolConnection,
  type DocumentDiagnosticReport,
} from "vscode-languageserver-protocol/node";
import { SERVER_NODE_FLAGS } from "../../server/src/launchOptions.js";
import { createFixture, type Fixture } from "./fixtureProject.js";

/** A hook file with one finding (HL001), for tests that start a built server's entry point. */
export const AGENT = 'import { HookBus, HookPoint } from "@hooklens/runtime";\nnew HookBus().on(HookPoint.API_PRE_CALL, () => undefined);\n';

export function agentFixture(): { fixture: Fixture; agent: string } {
  const fixture = createFixture();
  return { fixture, agent: fixture.write("agent.ts", AGENT) };
}

/**
 * Starts a built server (`server`: its entry, e.g. dist/server.js) with `env` added, pulls the
 * agent's diagnostics and shuts it down cleanly (exit code 0). Returns the diagnostic codes, or the
 * message the diagnostic request failed with. `whileRunning` runs after the diagnostics arrived,
 * before the shutdown.
 */
export async function agentDiagnostics(
  server: string,
  fixtureDir: string,
  agent: string,
  env: Record<string, string>,
  whileRunning?: () => Promise<void>,
): Promise<{ codes: string[] } | { error: string }> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, server, "--stdio"], { stdio: ["pipe", "pipe", "inherit"], env: { ...process.env, ...env } });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  connection.onRequest("workspace/configuration", (params: { items: unknown[] }) => params.items.map(() => null));
  connection.onError(() => undefined);
  connection.listen();
  try {
    const rootUri = pathToFileURL(fixtureDir).href;
    await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri, workspaceFolders: [{ uri: rootUri, name: "fixture" }], capabilities: {} });
    await connection.sendNotification("initialized", {});
    const uri = pathToFileURL(agent).href;
    await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "typescript", version: 1, text: AGENT } });
    const report = await connection
      .sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })
      .then((value: DocumentDiagnosticReport) => ({ codes: value.kind === "full" ? value.items.map((d) => String(d.code)) : [] }))
      .catch((error: Error) => ({ error: error.message }));
    await whileRunning?.();
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before it was asked to`);
    await connection.sendRequest("shutdown");
    await connection.sendNotification("exit");
    const code = await exited;
    if (code !== 0) throw new Error(`the server exited with ${code}`);
    return report;
  } finally {
    connection.dispose();
    child.kill();
  }
}
