import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  HookPoint,
  InvalidValueError,
  PAYLOAD_BYTE_CAP,
  POSTGRES_SIGNAL_SCHEMA_VERSION,
  PostgresSignalStore,
  SIGNAL_DB_ENV,
  Session,
  SessionObserver,
  Signal,
  SignalStoreClosedError,
  SignalStoreUnwritableError,
  closeEmbeddedSignalStores,
  defaultSignalDbPath,
  type JsonObject,
  type PostgresSignalStoreOptions,
} from "@hooklens/runtime";
import { startPostgres, type PostgresServer } from "../../helpers/postgres.js";
import { signalRecord } from "../../helpers/signalRecords.js";

let server: PostgresServer;
let databases = 0;
const opened: PostgresSignalStore[] = [];

beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.dispose());
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

/** A fresh database per test, so no test sees another's rows. */
async function freshDatabase(): Promise<string> {
  return server.createDatabase(`store_${++databases}`);
}

async function open(url: string, options: PostgresSignalStoreOptions = {}): Promise<PostgresSignalStore> {
  const store = await PostgresSignalStore.open(url, options);
  opened.push(store);
  return store;
}


describe("PostgresSignalStore", () => {
  it("creates the table, its index and a version row, and reads back every field and the same JSON object", async () => {
    const url = await freshDatabase();
    const store = await open(url);
    const payload: JsonObject = {
      text: "héllo ✓ \n quotes \" and 'single' and a literal \\u0000",
      float: 0.1 + 0.2,
      big: 2 ** 53 - 1,
      negative: -12.5,
      flags: [true, false, null],
      nested: { deeper: { list: [1, "two", { three: 3 }] }, empty: {} },
    };
    store.insertSessionSignal(signalRecord("s1", 1_796_000_000.123456, payload, "HookSignal", "op-9"));
    const [back] = await store.listSessionSignals("s1");
    expect(back).toEqual({ sessionId: "s1", kind: "HookSignal", opId: "op-9", ts: 1_796_000_000.123456, payload });
    // jsonb keeps values exactly but not key order: the same keys come back.
    expect(Object.keys(back!.payload).sort()).toEqual(Object.keys(payload).sort());

    const columns = await server.sql(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'hooklens_session_signals' ORDER BY ordinal_position",
      `store_${databases}`,
    );
    expect(columns.map((c) => `${String(c["column_name"])} ${String(c["data_type"])}`)).toEqual([
      "id bigint",
      "session_id text",
      "kind text",
      "op_id text",
      "ts double precision",
      "payload jsonb",
    ]);
    const meta = await server.sql("SELECT schema_version FROM hooklens_session_signals_meta", `store_${databases}`);
    expect(meta).toEqual([{ schema_version: POSTGRES_SIGNAL_SCHEMA_VERSION }]);
    const indexes = await server.sql("SELECT indexname FROM pg_indexes WHERE tablename = 'hooklens_session_signals' ORDER BY 1", `store_${databases}`);
    expect(indexes.map((i) => i["indexname"])).toContain("hooklens_session_signals_by_session");
  });

  it("stores NUL and lone surrogates, which jsonb refuses, as U+FFFD instead of losing the batch", async () => {
    const store = await open(await freshDatabase());
    store.insertSessionSignal(signalRecord("odd\0id", 1, { nul: "a\u0000b", lone: "x\ud800y", pair: "😀", kept: "\\u0000" }));
    store.insertSessionSignal(signalRecord("odd\0id", 2, { fine: true }));
    await store.flush();
    expect(store.droppedWrites).toBe(0);
    const rows = await store.listSessionSignals("odd\uFFFDid");
    expect(rows.map((r) => r.payload)).toEqual([{ nul: "a\uFFFDb", lone: "x\uFFFDy", pair: "😀", kept: "\\u0000" }, { fine: true }]);
  });

  it("keeps insertion order across many batches, one multi-row INSERT per event-loop turn", async () => {
    const url = await freshDatabase();
    const store = await open(url);
    const sessions = ["a", "b", "c"];
    let n = 0;
    // 2,500 rows in bursts of 250 per turn, with timestamps running backwards.
    for (let turn = 0; turn < 10; turn++) {
      for (let i = 0; i < 250; i++, n++) store.insertSessionSignal(signalRecord(sessions[n % 3]!, 10_000 - n, { n }));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await store.flush();
    for (const [index, id] of sessions.entries()) {
      const expected = Array.from({ length: 2_500 }, (_, i) => i).filter((i) => i % 3 === index);
      expect((await store.listSessionSignals(id)).map((r) => r.payload["n"])).toEqual(expected);
    }
    // Rows written by one INSERT share its transaction id (xmin): far fewer transactions than rows.
    const [{ transactions }] = (await server.sql("SELECT count(DISTINCT xmin::text)::int AS transactions FROM hooklens_session_signals", `store_${databases}`)) as [
      { transactions: number },
    ];
    expect(transactions).toBeGreaterThanOrEqual(3);
    expect(transactions).toBeLessThanOrEqual(12);
  });

  it("runs one INSERT text for batches of every size, prepared under its name and reused", async () => {
    const url = await freshDatabase();
    const store = await open(url);
    // Calls through to pg: the server really prepares and runs every statement.
    const query = vi.spyOn(pg.Client.prototype, "query");
    let inserts: Array<{ name?: string; text: string; rows: number }>;
    try {
      let n = 0;
      for (const size of [1, 7, 250, 3]) {
        for (let i = 0; i < size; i++, n++) store.insertSessionSignal(signalRecord("sizes", n, { n, text: 'a "quoted" \\ value' }));
        await store.flush();
      }
      inserts = query.mock.calls
        .map(([config]) => config as unknown as { name?: string; text?: string; values?: unknown[][] })
        .filter((config) => typeof config === "object" && config.text?.startsWith("INSERT"))
        .map((config) => ({ name: config.name, text: config.text!, rows: config.values![0]!.length }));
    } finally {
      query.mockRestore();
    }
    expect(inserts.map((i) => i.rows)).toEqual([1, 7, 250, 3]);
    expect(new Set(inserts.map((i) => `${i.name}\n${i.text}`)).size).toBe(1);
    expect(inserts[0]!.name).toMatch(/^hooklens_insert_[0-9a-f]{16}$/);
    const rows = await store.listSessionSignals("sizes");
    expect(rows.map((r) => r.payload["n"])).toEqual(Array.from({ length: 261 }, (_, i) => i));
    expect(rows.every((r) => r.payload["text"] === 'a "quoted" \\ value')).toBe(true);
  });

  it("writes a burst of one turn as a single INSERT", async () => {
    const url = await freshDatabase();
    const store = await open(url);
    for (let i = 0; i < 500; i++) store.insertSessionSignal(signalRecord("burst", i, { i }));
    await store.flush();
    const rows = await server.sql("SELECT count(*)::int AS n, count(DISTINCT xmin::text)::int AS transactions FROM hooklens_session_signals", `store_${databases}`);
    expect(rows).toEqual([{ n: 500, transactions: 1 }]);
  });

  it("lists the recorded sessions with first and last time and count, oldest first", async () => {
    const store = await open(await freshDatabase());
    store.insertSessionSignal(signalRecord("late", 50));
    store.insertSessionSignal(signalRecord("early", 7));
    store.insertSessionSignal(signalRecord("late", 40));
    store.insertSessionSignal(signalRecord("late", 60.5));
    expect(await store.listSessions()).toEqual([
      { sessionId: "late", firstTs: 40, lastTs: 60.5, signalCount: 3 },
      { sessionId: "early", firstTs: 7, lastTs: 7, signalCount: 1 },
    ]);
    expect(await store.listSessionSignals("missing")).toEqual([]);
  });

  it("queues inserts off the caller's stack; flush() waits for them", async () => {
    const url = await freshDatabase();
    const store = await open(url);
    // Returns nothing to await: the caller is never held up by the network.
    expect(store.insertSessionSignal(signalRecord("q", 1))).toBeUndefined();
    store.insertSessionSignal(signalRecord("q", 2));
    expect(store.pendingWrites).toBe(2);
    await store.flush();
    expect(store.pendingWrites).toBe(0);
    const other = await open(url, { readOnly: true });
    expect(await other.listSessionSignals("q")).toHaveLength(2);
  });

  it("writes what is queued when closed, refuses use afterwards, and a read-only open reads but never writes", async () => {
    const url = await freshDatabase();
    const store = await PostgresSignalStore.open(url);
    store.insertSessionSignal(signalRecord("c", 1, { x: 1 }));
    await store.close();
    await store.close(); // idempotent
    expect(() => store.insertSessionSignal(signalRecord("c", 2))).toThrow(SignalStoreClosedError);
    await expect(store.listSessionSignals("c")).rejects.toThrow(/is closed/);
    const reader = await open(url, { readOnly: true });
    expect((await reader.listSessionSignals("c")).map((r) => r.payload)).toEqual([{ x: 1 }]);
    expect(() => reader.insertSessionSignal(signalRecord("c", 3))).toThrow(SignalStoreUnwritableError);
  });

  it("read-only, creates nothing: an empty database has no sessions until a writer creates the table", async () => {
    const url = await freshDatabase();
    const reader = await open(url, { readOnly: true });
    expect(await reader.listSessions()).toEqual([]);
    expect(await server.sql("SELECT to_regclass('hooklens_session_signals')::text AS t", `store_${databases}`)).toEqual([{ t: null }]);
    const writer = await open(url);
    writer.insertSessionSignal(signalRecord("later", 1));
    await writer.flush();
    expect((await reader.listSessions()).map((s) => s.sessionId)).toEqual(["later"]);
  });

  it("uses the schema and table it is given, creating the schema, and refuses names that are not plain identifiers", async () => {
    const url = await freshDatabase();
    const store = await open(url, { schema: "team_a", table: "agent_runs" });
    expect(store.table).toBe("team_a.agent_runs");
    store.insertSessionSignal(signalRecord("t", 1, { where: "team_a" }));
    await store.flush();
    const rows = await server.sql("SELECT session_id, payload FROM team_a.agent_runs", `store_${databases}`);
    expect(rows).toEqual([{ session_id: "t", payload: { where: "team_a" } }]);
    expect(await server.sql("SELECT to_regclass('public.hooklens_session_signals')::text AS t", `store_${databases}`)).toEqual([{ t: null }]);
    for (const table of ["bad-name", 'x"; DROP TABLE y; --', "", "t".repeat(60)]) {
      await expect(PostgresSignalStore.open(url, { table })).rejects.toThrow(InvalidValueError);
    }
  });

  it("lets several stores open a new database at once: one creates the table, all write to it", async () => {
    const url = await freshDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => open(url)));
    stores.forEach((store, i) => store.insertSessionSignal(signalRecord("shared", i, { i })));
    await Promise.all(stores.map((store) => store.flush()));
    expect((await stores[0]!.listSessions())[0]!.signalCount).toBe(4);
  });
});

describe("an observer bound to a PostgresSignalStore", () => {
  it("persists what a Session, its HookBus and a Branch emit, in order, a >16 KiB payload as the bounded object", async () => {
    const store = await open(await freshDatabase());
    const session = new Session();
    session.observer.bindDbPersistence(session.id, store);
    const branch = session.newBranch();
    await session.hooks.emit(HookPoint.TOOL_PRE, { toolName: "search", callId: "c1", argsSummary: "q=x" });
    await branch.emit(new Signal({ data: { step: "plan" } }));
    await session.emit(new Signal({ data: "é".repeat(20_000) }));
    session.observer.unbindDbPersistence();
    await session.emit(new Signal({ data: "after unbind" }));
    await session.observer.flush();

    const rows = await store.listSessionSignals(session.id);
    expect(rows.map((r) => r.kind)).toEqual(["HookSignal", "Signal", "Signal"]);
    expect(rows[0]!.payload).toMatchObject({ point: "tool.pre", payload: { toolName: "search", callId: "c1", argsSummary: "q=x" } });
    expect(rows[1]!.payload).toMatchObject({ data: { step: "plan" }, metadata: { branchId: branch.id } });
    const capped = rows[2]!.payload;
    expect(Object.keys(capped).sort()).toEqual(["data", "originalBytes", "truncated"]);
    expect(capped["truncated"]).toBe(true);
    expect(capped["originalBytes"]).toBeGreaterThan(PAYLOAD_BYTE_CAP);
    expect(Buffer.byteLength(JSON.stringify(capped))).toBeLessThanOrEqual(PAYLOAD_BYTE_CAP);
    expect(String(capped["data"])).toMatch(/^\{"createdAt":/);
  });
});

describe("HOOKLENS_DB set to a PostgreSQL URL", () => {
  const saved = process.env[SIGNAL_DB_ENV];
  afterEach(async () => {
    await closeEmbeddedSignalStores();
    if (saved === undefined) delete process.env[SIGNAL_DB_ENV];
    else process.env[SIGNAL_DB_ENV] = saved;
  });

  it("is taken as it is, not as a path", () => {
    expect(defaultSignalDbPath({ HOOKLENS_DB: "postgres://u@db.example/runs" }, "/work/app")).toBe("postgres://u@db.example/runs");
    expect(defaultSignalDbPath({ HOOKLENS_DB: "postgresql://u@db.example/runs" }, "/work/app")).toBe("postgresql://u@db.example/runs");
  });

  it("makes a store-less binding write to that database, creating the table", async () => {
    const url = await freshDatabase();
    process.env[SIGNAL_DB_ENV] = url;
    const observer = new SessionObserver();
    observer.bindDbPersistence("env-pg");
    for (const value of ["a", "b", "c"]) await observer.emit(value);
    await closeEmbeddedSignalStores();
    const reader = await open(url, { readOnly: true });
    expect((await reader.listSessionSignals("env-pg")).map((r) => r.payload["data"])).toEqual(["a", "b", "c"]);
  });
});
