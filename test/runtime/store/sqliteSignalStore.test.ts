import { existsSync, mkdirSync, rmdirSync } from "node:fs";
import { Database } from "node-sqlite3-wasm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  HookPoint,
  InvalidValueError,
  PAYLOAD_BYTE_CAP,
  Session,
  Signal,
  SignalStoreClosedError,
  SignalStoreUnwritableError,
  SqliteSignalStore,
  type JsonObject,
  type SessionSignalRecord,
} from "@hooklens/runtime";
import { createTempDir } from "../../helpers/tempDir.js";
import { signalRecord } from "../../helpers/signalRecords.js";

let temp: ReturnType<typeof createTempDir>;
const opened: SqliteSignalStore[] = [];
beforeEach(() => (temp = createTempDir("hooklens-sqlite-")));
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  temp.dispose();
});

async function open(name = "signals.db", readOnly = false): Promise<SqliteSignalStore> {
  const store = await SqliteSignalStore.open(temp.path(name), { readOnly });
  opened.push(store);
  return store;
}


describe("SqliteSignalStore", () => {
  it("creates the file and its missing parent folders", async () => {
    await open("nested/deeper/signals.db");
    expect(existsSync(temp.path("nested/deeper/signals.db"))).toBe(true);
  });

  it("writes a batch of any size in order, rows grouped many per INSERT with the remainder one by one", async () => {
    const store = await open();
    const session = new Session();
    session.observer.bindDbPersistence("sizes", store);
    // 1,234 awaited emits: full batches of 1,000 and a tail of 234, neither a multiple of the rows per INSERT.
    for (let i = 0; i < 1_234; i++) await session.emit({ i, text: `row ${i}` });
    await session.observer.flush();
    const rows = store.listSessionSignals("sizes");
    expect(rows.map((row) => (row.payload["data"] as { i: number }).i)).toEqual(Array.from({ length: 1_234 }, (_, i) => i));
    expect(rows.every((row) => row.sessionId === "sizes" && row.kind === "Signal" && row.ts > 0)).toBe(true);
    expect(rows.every((row) => (row.payload["data"] as { i: number; text: string }).text === `row ${(row.payload["data"] as { i: number }).i}`)).toBe(true);
  });

  it("prepares its INSERTs once and reuses them for every batch (issue 13: prepared statements reused)", async () => {
    const store = await open();
    const session = new Session();
    session.observer.bindDbPersistence("prepared", store);
    const prepare = vi.spyOn(Database.prototype, "prepare");
    try {
      // Five flushed batches of 60: each one a many-row INSERT and ten one-row INSERTs.
      for (let batch = 0; batch < 5; batch++) {
        for (let i = 0; i < 60; i++) await session.emit({ batch, i });
        await session.observer.flush();
      }
      const inserts = prepare.mock.calls.map(([sql]) => String(sql)).filter((sql) => sql.includes("INSERT INTO session_signals"));
      // One statement per row count, however many batches.
      expect(inserts).toHaveLength(2);
      expect(new Set(inserts).size).toBe(2);
    } finally {
      prepare.mockRestore();
    }
    expect(store.listSessionSignals("prepared")).toHaveLength(300);
  });

  it("reads back every field, and the same JSON object that was written", async () => {
    const store = await open();
    const payload: JsonObject = {
      text: "héllo ✓ \u0000 \n quotes \" and 'single'",
      float: 0.1 + 0.2,
      big: 2 ** 53 - 1,
      negative: -12.5,
      flags: [true, false, null],
      nested: { deeper: { list: [1, "two", { three: 3 }] }, empty: {} },
    };
    store.insertSessionSignal(signalRecord("s1", 1_796_000_000.123456, payload, "HookSignal", "op-9"));
    const [back] = store.listSessionSignals("s1");
    expect(back).toEqual({ sessionId: "s1", kind: "HookSignal", opId: "op-9", ts: 1_796_000_000.123456, payload });
    expect(Object.keys(back!.payload)).toEqual(Object.keys(payload));
    // Written as bytes, stored as text: what other SQLite tools read is the same JSON text.
    store.close();
    const raw = new Database(temp.path("signals.db"), { readOnly: true });
    try {
      expect(raw.get("SELECT typeof(payload) AS type, payload FROM session_signals")).toEqual({ type: "text", payload: JSON.stringify(payload) });
    } finally {
      raw.close();
    }
  });

  it("lists one session's records in insertion order, not by timestamp", async () => {
    const store = await open();
    store.insertSessionSignal(signalRecord("a", 30, { n: 1 }));
    store.insertSessionSignal(signalRecord("b", 10, { n: 2 }));
    store.insertSessionSignal(signalRecord("a", 5, { n: 3 }));
    store.insertSessionSignal(signalRecord("a", 20, { n: 4 }));
    expect(store.listSessionSignals("a").map((r) => r.payload["n"])).toEqual([1, 3, 4]);
    expect(store.listSessionSignals("missing")).toEqual([]);
  });

  it("lists the recorded sessions with first and last time and count, oldest first", async () => {
    const store = await open();
    store.insertSessionSignal(signalRecord("late", 50));
    store.insertSessionSignal(signalRecord("early", 7));
    store.insertSessionSignal(signalRecord("late", 40));
    store.insertSessionSignal(signalRecord("late", 60));
    expect(store.listSessions()).toEqual([
      { sessionId: "late", firstTs: 40, lastTs: 60, signalCount: 3 },
      { sessionId: "early", firstTs: 7, lastTs: 7, signalCount: 1 },
    ]);
  });

  it("keeps records across close and reopen, read-only included", async () => {
    const writer = await open();
    writer.insertSessionSignal(signalRecord("kept", 1, { x: 1 }));
    writer.close();
    const reader = await open("signals.db", true);
    expect(reader.listSessionSignals("kept").map((r) => r.payload)).toEqual([{ x: 1 }]);
    expect(() => reader.insertSessionSignal(signalRecord("kept", 2))).toThrow(SignalStoreUnwritableError);
  });

  it("queues inserts off the caller's stack and writes them by the next turn; flush() waits for them", async () => {
    const store = await open();
    store.insertSessionSignal(signalRecord("q", 1));
    store.insertSessionSignal(signalRecord("q", 2));
    expect(store.pendingWrites).toBe(2);
    await store.flush();
    expect(store.pendingWrites).toBe(0);
    const other = await open("signals.db", true);
    expect(other.listSessionSignals("q")).toHaveLength(2);
  });

  it("refuses a record that is not one where it is inserted, and writes nothing for it", async () => {
    const store = await open();
    const insert = (record: unknown) => () => store.insertSessionSignal(record as SessionSignalRecord);
    expect(insert(null)).toThrow(/^SignalStore\.insertSessionSignal\(record\): record \(\{ sessionId, kind, opId, ts, payload \}\) must be an object, got null$/);
    expect(insert({ ...signalRecord("s", 1), sessionId: "" })).toThrow(/record\.sessionId must be a non-empty string, got a string \(""\)$/);
    expect(insert({ ...signalRecord("s", 1), kind: 42 })).toThrow(/record\.kind must be a string, got a number \(42\)$/);
    expect(insert({ ...signalRecord("s", 1), ts: "now" })).toThrow(/record\.ts must be a finite number \(POSIX seconds\), got a string \("now"\)$/);
    expect(insert(null)).toThrow(InvalidValueError);
    await store.flush();
    expect(store.listSessions()).toEqual([]);
    expect(store.droppedWrites).toBe(0);
  });

  it("writes what is still queued when closed, and refuses writes afterwards", async () => {
    const store = await open();
    store.insertSessionSignal(signalRecord("c", 1));
    store.close();
    expect(() => store.insertSessionSignal(signalRecord("c", 2))).toThrow(SignalStoreClosedError);
    expect(() => store.listSessionSignals("c")).toThrow(/is closed/);
    expect((await open("signals.db", true)).listSessionSignals("c")).toHaveLength(1);
  });

  it("retries writes while another process holds the lock, losing nothing and keeping order", async () => {
    const store = await open();
    const lock = `${store.path}.lock`;
    mkdirSync(lock); // what node-sqlite3-wasm's file lock is: a folder next to the database
    for (let i = 0; i < 5; i++) store.insertSessionSignal(signalRecord("locked", i, { i }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.pendingWrites).toBe(5);
    expect(store.busyRetries).toBeGreaterThan(0);
    rmdirSync(lock);
    await store.flush();
    expect(store.droppedWrites).toBe(0);
    expect(store.listSessionSignals("locked").map((r) => r.payload["i"])).toEqual([0, 1, 2, 3, 4]);
  });
});

describe("an observer bound to a SqliteSignalStore", () => {
  it("persists what a Session, its HookBus and a Branch emit, in order, including a capped payload", async () => {
    const store = await open();
    const session = new Session();
    session.observer.bindDbPersistence(session.id, store);
    const branch = session.newBranch();
    await session.hooks.emit(HookPoint.TOOL_PRE, { toolName: "search", callId: "c1", argsSummary: "q=x" });
    await branch.emit(new Signal({ data: { step: "plan" } }));
    await session.emit(new Signal({ data: "é".repeat(20_000) }));
    session.observer.unbindDbPersistence();
    await session.emit(new Signal({ data: "after unbind" }));
    await session.observer.flush();

    const rows = store.listSessionSignals(session.id);
    expect(rows.map((r) => r.kind)).toEqual(["HookSignal", "Signal", "Signal"]);
    expect(rows[0]!.payload).toMatchObject({ point: "tool.pre", payload: { toolName: "search", callId: "c1", argsSummary: "q=x" } });
    expect(rows[1]!.payload).toMatchObject({ data: { step: "plan" }, metadata: { branchId: branch.id } });
    const capped = rows[2]!.payload;
    expect(capped).toMatchObject({ truncated: true, originalBytes: expect.any(Number) });
    expect(Object.keys(capped)).toEqual(["truncated", "originalBytes", "data"]);
    expect(capped["originalBytes"]).toBeGreaterThan(PAYLOAD_BYTE_CAP);
    expect(Buffer.byteLength(JSON.stringify(capped))).toBeLessThanOrEqual(PAYLOAD_BYTE_CAP);
    expect(String(capped["data"])).toMatch(/^\{"createdAt":/);
  });
});
