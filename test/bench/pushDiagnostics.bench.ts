import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { StreamMessageReader, StreamMessageWriter, createMessageConnection } from "vscode-jsonrpc/node";
import { BENCH_PROBE_ENV, BENCH_PROBE_METHOD, type BenchProbeReading } from "../../server/src/lsp/benchProbe.js";
import { createFixture } from "../helpers/fixtureProject.js";

const SERVER = fileURLToPath(new URL("../../dist/server.js", import.meta.url));
const ROUNDS = 8;
const BURST = 20;

/** A 300-line hook module: registrations on every scope, one dormant point (HL001) among them. */
function hookFile(): string {
  const lines = ['import { HookBus, HookPoint, HookRegistry, StopHook } from "@hooklens/runtime";', "", "export const bus = new HookBus();", "export const registry = new HookRegistry();", ""];
  for (let i = 0; lines.length < 290; i++) {
    lines.push(
      `export function handler${i}(payload: Record<string, unknown>): void {`,
      `  if (payload["blocked${i}"] === true) throw new StopHook("blocked ${i}");`,
      `  console.log("tool ${i}", payload);`,
      "}",
      `bus.on(HookPoint.TOOL_PRE, handler${i});`,
      `registry.postInvoke(async (event) => ({ ...event, note: ${i} }));`,
      "",
    );
  }
  lines.push("bus.on(HookPoint.API_PRE_CALL, handler0);", "let counter = 0;", "export const next = () => ++counter;");
  while (lines.length < 300) lines.push("");
  return lines.join("\n");
}

interface Burst {
  /** From the last change sent to its diagnostics published, in ms (includes the server's quiet time). */
  latencyMs: number;
  analyses: number;
  /** The server's own CPU for the whole burst, in ms (the wall clock above also counts a loaded machine). */
  cpuMs: number;
}

/**
 * Published diagnostics as a client without pull diagnostics gets them (Neovim, Sublime, Emacs):
 * bursts of 20 quick changes to a 300-line hook file, measuring the time from the last change to
 * its diagnostics and how many analyses the server ran for the burst (read through the bench probe).
 */
export async function run(): Promise<string> {
  if (!existsSync(SERVER)) throw new Error("dist/server.js is missing: run `npm run build` (or `npm run bench`) first");
  const fixture = createFixture();
  const file = fixture.write("hooks.ts", hookFile());
  const uri = pathToFileURL(file).href;
  const child = spawn(process.execPath, [SERVER, "--stdio"], { stdio: ["pipe", "pipe", "inherit"], env: { ...process.env, [BENCH_PROBE_ENV]: "1" } });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const waiting = new Map<number, () => void>();
  connection.onNotification("textDocument/publishDiagnostics", (params: { uri: string; version?: number }) => {
    if (params.uri === uri && params.version !== undefined) waiting.get(params.version)?.();
  });
  connection.onRequest("workspace/configuration", (params: { items: unknown[] }) => params.items.map(() => null));
  connection.listen();
  const published = (version: number) => new Promise<void>((resolve) => waiting.set(version, resolve));
  try {
    await connection.sendRequest("initialize", { processId: process.pid, rootUri: pathToFileURL(fixture.dir).href, capabilities: {} });
    await connection.sendNotification("initialized", {});
    const text = hookFile();
    const opened = published(1);
    await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "typescript", version: 1, text } });
    await opened;
    let version = 1;
    const bursts: Burst[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const before = (await connection.sendRequest(BENCH_PROBE_METHOD)) as BenchProbeReading;
      const last = version + BURST;
      const done = published(last);
      let sentLast = 0;
      while (version < last) {
        version++;
        await connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text: text.replace("let counter = 0;", `let counter = ${version};`) }] });
        sentLast = performance.now();
      }
      await done;
      const latencyMs = performance.now() - sentLast;
      const after = (await connection.sendRequest(BENCH_PROBE_METHOD)) as BenchProbeReading;
      bursts.push({ latencyMs, analyses: after.analyses - before.analyses, cpuMs: (after.cpuMicros - before.cpuMicros) / 1000 });
    }
    return format(bursts);
  } finally {
    await connection.sendRequest("shutdown").catch(() => undefined);
    await connection.sendNotification("exit").catch(() => undefined);
    connection.dispose();
    if (child.exitCode === null) child.kill();
    fixture.dispose();
  }
}

function format(bursts: Burst[]): string {
  const range = (values: number[], digits: number) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;
  const latencies = bursts.map((b) => b.latencyMs).sort((a, b) => a - b);
  const median = latencies[Math.floor(latencies.length / 2)]!;
  return [
    `push diagnostics (client without pull), 300-line hook file, ${bursts.length} bursts of ${BURST} changes`,
    `  last change → published diagnostics   ${range(latencies, 0)} ms (median ${median.toFixed(0)} ms; includes the 250 ms quiet time)`,
    `  analyses per burst of ${BURST} changes          ${range(bursts.map((b) => b.analyses), 0)} (target: at most 2)`,
    `  server CPU per burst                    ${range(bursts.map((b) => b.cpuMs), 0)} ms`,
  ].join("\n");
}
