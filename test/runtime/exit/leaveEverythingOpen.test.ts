// Programs always exit: one that opens the SQLite store and the live stream (to a receiver that
// accepts and never reads) and closes neither ends on its own, code 0, with every signal recorded.
import { spawn } from "node:child_process";
import net from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LIVE_ENV, SqliteSignalStore } from "@hooklens/runtime";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";
import { createTempDir } from "../../helpers/tempDir.js";
import { bundledFixture } from "../../helpers/bundledFixture.js";

const PROGRAM = fileURLToPath(new URL("./fixtures/leaveEverythingOpen.mts", import.meta.url));
const SIGNALS = 2_000;
/** Only tells an exit from a hang: far above what the program needs even on a loaded machine. */
const HANG_MS = 120_000;

let temp: ReturnType<typeof createTempDir>;
let server: net.Server;
const sockets: net.Socket[] = [];
beforeEach(() => (temp = createTempDir("hooklens-exit-open-")));
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
  temp.dispose();
});

describe("a program that closes nothing", () => {
  it("exits on its own with code 0, its signals in the SQLite file, though the live receiver never reads", async () => {
    const endpoint = temp.path("live.sock");
    server = net.createServer((socket) => {
      sockets.push(socket);
      socket.pause(); // accepts, never reads
    });
    await new Promise<void>((resolve) => server.listen(endpoint, resolve));
    const dbPath = temp.path("signals.db");
    const child = spawn(process.execPath, [bundledFixture(PROGRAM), dbPath, String(SIGNALS)], {
      cwd: REPO_ROOT,
      env: { ...process.env, [LIVE_ENV]: `${endpoint}?token=${"ef".repeat(16)}` },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const hang = setTimeout(() => child.kill("SIGKILL"), HANG_MS);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on("exit", (c, s) => resolve([c, s])));
    clearTimeout(hang);
    expect(signal, `killed as hung; stderr: ${stderr}`).toBeNull();
    expect(code, stderr).toBe(0);
    const sessionId = /^(\S+) emitted/.exec(stdout)?.[1];
    expect(sessionId).toBeDefined();
    const store = await SqliteSignalStore.open(dbPath);
    try {
      const steps = store.listSessionSignals(sessionId!).map((row) => (row.payload["payload"] as { step?: number } | undefined)?.step);
      expect(steps).toEqual(Array.from({ length: SIGNALS }, (_, i) => i));
    } finally {
      store.close();
    }
  }, HANG_MS + 30_000);
});
