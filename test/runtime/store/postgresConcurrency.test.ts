import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSignalStore } from "@hooklens/runtime";
import { startPostgres, type PostgresServer } from "../../helpers/postgres.js";
import { startWriterProcess, WRITER_SCRIPT, type WriterProcess } from "./fixtures/writerProcess.js";

const COUNT = 600;
const WRITERS = ["writer-a", "writer-b"];

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.dispose());

/** The shared writer, or another fixture `script` taking `<url> <sessionId> <count>`. */
function startWriter(url: string, sessionId: string, script?: string): WriterProcess {
  return script
    ? startWriterProcess(sessionId, script, [url, sessionId, String(COUNT)])
    : startWriterProcess(sessionId, WRITER_SCRIPT, ["postgres", url, sessionId, String(COUNT)]);
}

describe("two processes writing the same PostgreSQL table", () => {
  it("both create the table on a new database, then lose nothing and keep each writer's order", async () => {
    const url = await server.createDatabase("shared");
    // Neither opened it before: both race to create the table.
    const writers = WRITERS.map((id) => startWriter(url, id));
    expect(await Promise.all(writers.map((w) => w.nextLine()))).toEqual(["ready", "ready"]);
    for (const w of writers) w.child.stdin.write("go\n");
    const reports = (await Promise.all(writers.map((w) => w.nextLine()))).map((line) => JSON.parse(line) as { dropped: number });
    expect(await Promise.all(writers.map((w) => w.exited))).toEqual([0, 0]);
    expect(reports.map((r) => r.dropped)).toEqual([0, 0]);

    const store = await PostgresSignalStore.open(url, { readOnly: true });
    try {
      for (const id of WRITERS) {
        const rows = await store.listSessionSignals(id);
        expect(rows.map((r) => r.payload["i"])).toEqual(Array.from({ length: COUNT }, (_, i) => i));
        expect(rows.every((r) => r.payload["writer"] === id)).toBe(true);
      }
      expect((await store.listSessions()).map((s) => s.signalCount)).toEqual([COUNT, COUNT]);
      // The writers really overlapped: their rows interleave in the table.
      const order = await server.sql("SELECT session_id FROM hooklens_session_signals ORDER BY id", "shared");
      const switches = order.filter((row, i) => i > 0 && row["session_id"] !== order[i - 1]!["session_id"]).length;
      expect(switches).toBeGreaterThan(1);
    } finally {
      await store.close();
    }
  });
});

describe("a program that ends without flushing or closing its PostgresSignalStore", () => {
  it("writes what waited out an outage before it exits, and then exits on its own", async () => {
    const url = await server.createDatabase("no_flush");
    const script = fileURLToPath(new URL("./fixtures/exitWithoutFlush.mts", import.meta.url));
    const program = startWriter(url, "no-flush", script);
    expect(await program.nextLine()).toBe("ready");
    server.stop();
    try {
      program.child.stdin.write("go\n");
      expect(await program.nextLine()).toBe("25");
    } finally {
      server.start();
    }
    const ending = Date.now();
    program.child.stdin.write("end\n");
    expect(await program.exited).toBe(0);
    // Idle pooled connections do not hold the process open (pg's idle timeout is 10 s).
    expect(Date.now() - ending).toBeLessThan(8_000);
    const rows = await server.sql("SELECT payload FROM hooklens_session_signals ORDER BY id", "no_flush");
    expect(rows.map((row) => (row["payload"] as { i: number }).i)).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });
});
