// Real processes recording Sessions into one SQLite file through the signal pipeline (emit →
// batch flush → StoreSink → SqliteSignalStore): a writer killed with SIGKILL mid-run leaves a
// readable database with every committed batch intact, and two writers at once lose nothing.
import { mkdirSync, rmdirSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionObserver, SqliteSignalStore } from "@hooklens/runtime";
import { createTempDir } from "../../helpers/tempDir.js";
import { startWriterProcess } from "./fixtures/writerProcess.js";

const WRITER = fileURLToPath(new URL("./fixtures/sessionWriter.mts", import.meta.url));
const RUN = 100_000;

let temp: ReturnType<typeof createTempDir>;
beforeEach(() => (temp = createTempDir("hooklens-pipeline-processes-")));
afterEach(() => temp.dispose());

/** The session's rows must be exactly 0..n-1, each with its own text; returns n. */
function intactPrefix(store: SqliteSignalStore, sessionId: string): number {
  const rows = store.listSessionSignals(sessionId);
  const data = rows.map((row) => row.payload["data"] as { i: number; text: string; writer: string });
  expect(data.map((d) => d.i)).toEqual(Array.from({ length: rows.length }, (_, i) => i));
  expect(data.every((d) => d.text === `row ${d.i}` && d.writer === sessionId)).toBe(true);
  expect(rows.every((row) => row.kind === "Signal")).toBe(true);
  return rows.length;
}

/** SQLite's own check of the file, through the same driver the store uses. */
function integrity(path: string): string {
  const { Database } = createRequire(import.meta.url)("node-sqlite3-wasm") as {
    Database: new (path: string, options: { readOnly: boolean }) => { get(sql: string): Record<string, unknown>; close(): void };
  };
  const db = new Database(path, { readOnly: true });
  try {
    return String(db.get("PRAGMA integrity_check")["integrity_check"]);
  } finally {
    db.close();
  }
}

describe("Session recordings in SQLite, written by real processes", () => {
  it(`a writer killed with SIGKILL in the middle of a ${RUN.toLocaleString("en-US")}-signal run leaves every committed batch intact`, async () => {
    const path = temp.path("killed.db");
    const writer = startWriterProcess("session writer", WRITER, [path, "killed", String(RUN), "10000"]);
    // Killed after its third checkpoint, while it is writing the next batches.
    let committed = 0;
    while (committed < 30_000) committed = Number(/^committed (\d+)$/.exec(await writer.nextLine())?.[1] ?? committed);
    writer.child.kill("SIGKILL");
    expect(await writer.exited).toBeNull();

    // Opening for writing recovers the lock a killed writer may have left (killed inside a
    // transaction, it holds the lock for good); only then can another connection read the file.
    const store = await SqliteSignalStore.open(path, { busyTimeoutMs: 10_000 });
    try {
      expect(integrity(path)).toBe("ok");
      const kept = intactPrefix(store, "killed");
      expect(kept).toBeGreaterThanOrEqual(committed);
      expect(kept).toBeLessThan(RUN);
      // The file takes new recordings after the kill.
      const observer = new SessionObserver();
      observer.bindDbPersistence("after", store);
      await observer.emit({ i: 0, writer: "after", text: "row 0" });
      await observer.flush();
      expect(intactPrefix(store, "after")).toBe(1);
      expect(store.droppedWrites).toBe(0);
    } finally {
      store.close();
    }
  }, 300_000);

  it("two writers at once, starting against a locked file, lose nothing and keep each session's order", async () => {
    const path = temp.path("shared.db");
    const count = 5_000;
    (await SqliteSignalStore.open(path)).close();
    const writers = ["writer-a", "writer-b"].map((id) => startWriterProcess(id, WRITER, [path, id, String(count), String(count), "wait"]));
    expect(await Promise.all(writers.map((w) => w.nextLine()))).toEqual(["ready", "ready"]);
    // Held the way a third node-sqlite3-wasm process holds it, so both start by waiting for it.
    mkdirSync(`${path}.lock`);
    for (const w of writers) w.child.stdin.write("go\n");
    // Released once both have run into it, however long a loaded machine takes to get them there.
    expect(await Promise.all(writers.map((w) => w.nextLine()))).toEqual(["busy", "busy"]);
    rmdirSync(`${path}.lock`);

    const lines = await Promise.all(writers.map(async (w) => [await w.nextLine(), await w.nextLine()]));
    expect(lines.map(([checkpoint]) => checkpoint)).toEqual([`committed ${count}`, `committed ${count}`]);
    const reports = lines.map(([, report]) => JSON.parse(report!) as { dropped: number; busyRetries: number });
    expect(await Promise.all(writers.map((w) => w.exited))).toEqual([0, 0]);
    expect(reports.map((r) => r.dropped)).toEqual([0, 0]);
    expect(reports.every((r) => r.busyRetries > 0)).toBe(true);

    expect(integrity(path)).toBe("ok");
    const store = await SqliteSignalStore.open(path, { readOnly: true });
    try {
      for (const id of ["writer-a", "writer-b"]) expect(intactPrefix(store, id)).toBe(count);
    } finally {
      store.close();
    }
  }, 300_000);
});
