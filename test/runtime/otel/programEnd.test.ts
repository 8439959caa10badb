// The root span must end and reach the backend however the program ends: session.end, running
// out of work, SIGINT/SIGTERM, its own signal handler, and a collector that never answers must not
// keep it from exiting. Each case runs a real program (fixtures/programEnd.mts) exporting over
// OTLP/HTTP to a receiver on 127.0.0.1, configured only through the standard OTEL_* variables.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { runExample } from "../../helpers/docExamples.js";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";
import { attribute, startReceiver, type Receiver } from "./otlpReceiver.js";
import { bundledFixture } from "../../helpers/bundledFixture.js";

const PROGRAM = fileURLToPath(new URL("./fixtures/programEnd.mts", import.meta.url));
// The bounds only stop a hung child (a loaded machine can take seconds to start one).
const CHILD_LIMIT_MS = 120_000;

interface Child {
  /** Resolves when the program printed "ready". */
  ready: Promise<void>;
  kill(signal: NodeJS.Signals): void;
  /** How it ended: its exit code, or the signal that killed it. */
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

const running: Array<{ kill(signal: NodeJS.Signals): void }> = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const child of running.splice(0)) child.kill("SIGKILL");
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver(options: { answer?: boolean } = {}): Promise<Receiver> {
  const started = await startReceiver(options);
  receivers.push(started);
  return started;
}

function start(how: string, endpoint: string, env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, [bundledFixture(PROGRAM), how], {
    cwd: REPO_ROOT,
    env: { ...process.env, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.push(child);
  let stdout = "";
  let stderr = "";
  let wake: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (wake = resolve));
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes("ready")) wake();
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const limit = setTimeout(() => child.kill("SIGKILL"), CHILD_LIMIT_MS);
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on("exit", (code, signal) => {
      clearTimeout(limit);
      wake();
      resolve({ code, signal, stderr });
    }),
  );
  return { ready, kill: (signal) => child.kill(signal), ended };
}

describe("the root span reaches the backend however the program ends", () => {
  it("a program that runs out of work without calling end(): the whole trace arrives, then it exits 0", async () => {
    const otlp = await receiver();
    const { code, signal, stderr } = await start("runs-out", otlp.url).ended;
    expect({ code, signal }, stderr).toEqual({ code: 0, signal: null });
    expect(otlp.spans().map((s) => s.name).sort()).toEqual(["execute_tool add", "session"]);
  });

  it.each(["SIGINT", "SIGTERM"] as const)("%s to a program with no handler of its own: the trace arrives, then it dies by that signal", async (name) => {
    const otlp = await receiver();
    const child = start("signal", otlp.url);
    await child.ready;
    child.kill(name);
    const { code, signal, stderr } = await child.ended;
    expect({ code, signal }, stderr).toEqual({ code: null, signal: name });
    const spans = otlp.spans();
    expect(spans.map((s) => s.name).sort()).toEqual(["execute_tool add", "session"]);
    const root = spans.find((s) => s.name === "session")!;
    expect(spans.find((s) => s.name === "execute_tool add")!.parentSpanId).toBe(root.spanId);
  });

  it("SIGTERM to a program with its own handler: the program decides (here: end(), then exit 0) and the trace arrives", async () => {
    const otlp = await receiver();
    const child = start("own-handler", otlp.url);
    await child.ready;
    child.kill("SIGTERM");
    const { code, signal, stderr } = await child.ended;
    expect({ code, signal }, stderr).toEqual({ code: 0, signal: null });
    expect(otlp.spans().map((s) => s.name).sort()).toEqual(["execute_tool add", "session"]);
  });

  it("session.end ends and sends the trace while the program keeps running, with the session's outcome on the root", async () => {
    const otlp = await receiver();
    const child = start("session-end", otlp.url);
    const root = await Promise.race([otlp.waitFor("session"), child.ended.then(({ stderr }) => Promise.reject(new Error(`the program ended first: ${stderr}`)))]);
    expect(otlp.spans().map((s) => s.name).sort()).toEqual(["execute_tool add", "session"]);
    expect(root.status).toEqual({ code: 2, message: "quota exceeded" });
    expect(attribute(root.attributes, "hooklens.session.status")).toBe("failed");
    expect(attribute(root.attributes, "gen_ai.usage.input_tokens")).toBe(7);
    expect(root.events?.map((e) => e.name).filter((name) => name !== "message")).toEqual(["session.end", "exception"]);
    child.kill("SIGKILL"); // it is still running: nothing but session.end sent the trace
    expect((await child.ended).signal).toBe("SIGKILL");
  });

  it("a collector that never answers does not keep the program from exiting, at its end or on SIGINT", async () => {
    const silent = await receiver({ answer: false });
    const env = { OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: "1000" };
    const ranOut = await start("runs-out", silent.url, env).ended;
    expect({ code: ranOut.code, signal: ranOut.signal }, ranOut.stderr).toEqual({ code: 0, signal: null });
    const child = start("signal", silent.url, env);
    await child.ready;
    child.kill("SIGINT");
    const interrupted = await child.ended;
    expect({ code: interrupted.code, signal: interrupted.signal }, interrupted.stderr).toEqual({ code: null, signal: "SIGINT" });
    expect(silent.requests).toEqual([]);
  });

  it("process.exit() without end(): the open spans are ended on the way out, so a synchronous exporter still gets them", async () => {
    const { stdout, stderr, code } = await runExample("test/runtime/otel/fixtures/noEndCall.mts", { EXIT_RIGHT_AWAY: "1" });
    expect(code, stderr).toBe(0);
    expect(stdout.trim()).toBe("exported at exit: execute_tool add, session");
  });
});
