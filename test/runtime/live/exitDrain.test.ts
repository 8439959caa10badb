import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LIVE_ENV, type LiveFrame } from "@hooklens/runtime";
import { LIVE_DRAIN_ENV } from "../../../runtime/src/session/pipeline/signalSettings.js";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";
import { bundledFixture } from "../../helpers/bundledFixture.js";

const STREAMER = fileURLToPath(new URL("./fixtures/streamSignals.mts", import.meta.url));
const SIGNALS = 20_000;

let dir: string;
let server: net.Server;
let sockets: net.Socket[];
/** Per accepted connection, settles once the receiver has read it to its end and it closed. */
let socketsClosed: Array<Promise<void>>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hooklens-exit-"));
  sockets = [];
  socketsClosed = [];
});

afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** A real receiver on a Unix socket; `onSocket` decides whether it ever reads. */
async function listen(onSocket: (socket: net.Socket) => void): Promise<string> {
  const endpoint = join(dir, "live.sock");
  server = net.createServer((socket) => {
    sockets.push(socket);
    socketsClosed.push(new Promise((resolve) => socket.once("close", () => resolve())));
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(endpoint, resolve));
  return `${endpoint}?token=${"ab".repeat(16)}`;
}

/** Runs the streaming program to its end; resolves with its exit code, stdout and how long it took. */
function runStreamer(
  live: string,
  env: Record<string, string> = {},
  mode: "end" | "flush" = "end",
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [bundledFixture(STREAMER), String(SIGNALS), mode], {
    cwd: REPO_ROOT,
    env: { ...process.env, [LIVE_ENV]: live, ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  // A guard so a regression fails the test instead of hanging the suite.
  const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) =>
    child.on("exit", (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    }),
  );
}

/** Every signal of the run arrived, none was reported dropped, and the connection ended with bye. */
async function expectEverySignalThenBye(received: () => string): Promise<void> {
  // The last bytes may still be in the socket when the program exits: read it to its end.
  await Promise.all(socketsClosed);
  const frames = parseFrames(received());
  expect(frames.filter((frame) => frame.type === "signal")).toHaveLength(SIGNALS);
  expect(frames.filter((frame) => frame.type === "dropped")).toHaveLength(0);
  expect(frames.at(-1)).toEqual({ type: "bye" });
}

function parseFrames(text: string): LiveFrame[] {
  return text
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as LiveFrame);
}

describe("exit is never held hostage by the live receiver", () => {
  it("exits promptly when the receiver accepts the connection and never reads", async () => {
    const live = await listen((socket) => socket.pause());
    const run = await runStreamer(live);
    expect(run.stdout).toContain(`emitted ${SIGNALS}`);
    // Startup on a loaded machine takes seconds; without the bound this never ends.
    expect(run.code).toBe(0);
    expect(run.ms).toBeLessThan(30_000);
    // The frames that could not be delivered are reported, not silently lost.
    expect(run.stderr).toMatch(/dropped|editor/i);
  }, 90_000);

  it("honours a longer drain configured through the environment, still bounded", async () => {
    const live = await listen((socket) => socket.pause());
    const run = await runStreamer(live, { [LIVE_DRAIN_ENV]: "1500" });
    expect(run.code).toBe(0);
    expect(run.ms).toBeGreaterThanOrEqual(1_500);
    expect(run.ms).toBeLessThan(30_000);
  }, 90_000);

  it("a receiver that reads gets every signal and the bye", async () => {
    let received = "";
    const live = await listen((socket) => socket.on("data", (chunk: Buffer) => (received += chunk.toString())));
    // A generous bound so a loaded machine cannot cut a reading receiver short; the drain ends as soon as it is read.
    const run = await runStreamer(live, { [LIVE_DRAIN_ENV]: "20000" });
    expect(run.code).toBe(0);
    await expectEverySignalThenBye(() => received);
  }, 90_000);

  it("an awaited flushLive() waits for a receiver that reads in bursts with long pauses, and everything arrives", async () => {
    let received = "";
    const live = await listen((socket) => {
      socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
      // Reads a little, then nothing for 600 ms, over and over: far longer gaps than the stall check's.
      const pauses = setInterval(() => {
        if (socket.destroyed) return clearInterval(pauses);
        socket.pause();
        setTimeout(() => socket.resume(), 600).unref();
      }, 650);
      pauses.unref();
    });
    // The default exit drain (250 ms): only the awaited flush may keep the program waiting.
    const run = await runStreamer(live, {}, "flush");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("flushed");
    await expectEverySignalThenBye(() => received);
  }, 90_000);

  it("an awaited flushLive() waits while a slow receiver needs far longer than the stall bound for the whole backlog", async () => {
    let received = "";
    let chunks = 0;
    const live = await listen((socket) => {
      // Every chunk read is followed by 100 ms of nothing: the ~7 MB backlog takes well over the
      // 5 s an awaited flush waits for a receiver that reads nothing at all. Handed to the socket
      // whole, it went out as one write that showed no progress until the end, and was abandoned.
      socket.on("data", (chunk: Buffer) => {
        received += chunk.toString();
        chunks++;
        socket.pause();
        setTimeout(() => socket.resume(), 100).unref();
      });
    });
    const run = await runStreamer(live, {}, "flush");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("flushed");
    expect(chunks).toBeGreaterThan(50);
    await expectEverySignalThenBye(() => received);
  }, 120_000);
});
