import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, rmdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteSignalStore } from "@hooklens/runtime";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";
import { createTempDir } from "../../helpers/tempDir.js";

const writerScript = fileURLToPath(new URL("./fixtures/concurrentWriter.mts", import.meta.url));
const COUNT = 300;
const WRITERS = ["writer-a", "writer-b"];

let temp: ReturnType<typeof createTempDir>;
beforeEach(() => (temp = createTempDir("hooklens-sqlite-two-writers-")));
afterEach(() => temp.dispose());

interface Writer {
  child: ChildProcessWithoutNullStreams;
  /** Resolves with each stdout line as it arrives. */
  nextLine(): Promise<string>;
  exited: Promise<number | null>;
}

function startWriter(path: string, sessionId: string): Writer {
  const child = spawn(process.execPath, ["--import", "tsx", writerScript, path, sessionId, String(COUNT)], { cwd: REPO_ROOT });
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  let buffered = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    }
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      if (code !== 0) process.stderr.write(`${sessionId} failed:\n${stderr}\n`);
      resolve(code);
    }),
  );
  const nextLine = () => (lines.length > 0 ? Promise.resolve(lines.shift()!) : new Promise<string>((resolve) => waiting.push(resolve)));
  return { child, nextLine, exited };
}

describe("two processes writing the same signal database", () => {
  it("lose nothing and keep each writer's order, waiting out each other's lock", { timeout: 60_000 }, async () => {
    const path = temp.path("shared.db");
    (await SqliteSignalStore.open(path)).close();
    const writers = WRITERS.map((id) => startWriter(path, id));
    expect(await Promise.all(writers.map((w) => w.nextLine()))).toEqual(["ready", "ready"]);

    // Hold the lock the way a third node-sqlite3-wasm process would, so both writers start
    // against a locked file, then release it and let them race each other.
    mkdirSync(`${path}.lock`);
    for (const w of writers) w.child.stdin.write("go\n");
    await new Promise((resolve) => setTimeout(resolve, 300));
    rmdirSync(`${path}.lock`);

    const reports = (await Promise.all(writers.map((w) => w.nextLine()))).map(
      (line) => JSON.parse(line) as { dropped: number; busyRetries: number },
    );
    expect(await Promise.all(writers.map((w) => w.exited))).toEqual([0, 0]);
    expect(reports.map((r) => r.dropped)).toEqual([0, 0]);
    for (const report of reports) expect(report.busyRetries).toBeGreaterThan(0);

    const store = await SqliteSignalStore.open(path, { readOnly: true });
    try {
      for (const id of WRITERS) {
        const rows = store.listSessionSignals(id);
        expect(rows.map((r) => r.payload["i"])).toEqual(Array.from({ length: COUNT }, (_, i) => i));
        expect(rows.every((r) => r.payload["writer"] === id)).toBe(true);
      }
      expect(store.listSessions().map((s) => s.signalCount)).toEqual([COUNT, COUNT]);
    } finally {
      store.close();
    }
  });
});
