import { mkdirSync, rmdirSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteSignalStore } from "@hooklens/runtime";
import { createTempDir } from "../../helpers/tempDir.js";
import { startWriterProcess, WRITER_SCRIPT, type WriterProcess } from "./fixtures/writerProcess.js";

const COUNT = 300;
const WRITERS = ["writer-a", "writer-b"];

let temp: ReturnType<typeof createTempDir>;
beforeEach(() => (temp = createTempDir("hooklens-sqlite-two-writers-")));
afterEach(() => temp.dispose());

function startWriter(path: string, sessionId: string): WriterProcess {
  return startWriterProcess(sessionId, WRITER_SCRIPT, ["sqlite", path, sessionId, String(COUNT)]);
}

describe("two processes writing the same signal database", () => {
  it("lose nothing and keep each writer's order, waiting out each other's lock", async () => {
    const path = temp.path("shared.db");
    (await SqliteSignalStore.open(path)).close();
    const writers = WRITERS.map((id) => startWriter(path, id));
    expect(await Promise.all(writers.map((w) => w.nextLine()))).toEqual(["ready", "ready"]);

    // Hold the lock the way a third node-sqlite3-wasm process would, so both writers start
    // against a locked file, then release it and let them race each other.
    mkdirSync(`${path}.lock`);
    for (const w of writers) w.child.stdin.write("go\n");
    expect(await Promise.all(writers.map((w) => w.nextLine()))).toEqual(["busy", "busy"]);
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
