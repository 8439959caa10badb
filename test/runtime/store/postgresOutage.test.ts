// The PostgreSQL server going away while a program records: writes wait, are retried, and are
// either written once it is back or dropped with a logged count, never thrown into user code.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { PostgresSignalStore, SIGNALS_DROPPED_KIND, SessionObserver, SignalStoreUnreachableError, type SessionSignalRecord } from "@hooklens/runtime";
import { captureLogs, type CapturedLog } from "../../helpers/captureLogs.js";
import { PASSWORD_USER, startPostgres, type PostgresServer } from "../../helpers/postgres.js";

let server: PostgresServer;
let logs: CapturedLog[];
let restoreLogs: () => void;
const opened: PostgresSignalStore[] = [];

beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.dispose());
beforeEach(() => ({ logs, restore: restoreLogs } = captureLogs()));
afterEach(async () => {
  server.start(); // a failed test must not leave the next one without a server
  for (const store of opened.splice(0)) await store.close();
  restoreLogs();
});

const record = (sessionId: string, i: number): SessionSignalRecord => ({ sessionId, kind: "Signal", opId: "", ts: i, payload: { i } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function open(retryWindowMs: number): Promise<PostgresSignalStore> {
  // The password role: the drop log below must not quote its password.
  const store = await PostgresSignalStore.open(server.url("postgres", PASSWORD_USER), { retryWindowMs, table: `outage_${opened.length}_${Date.now() % 100_000}` });
  opened.push(store);
  // A connection is in the pool when the server dies, as in a real run.
  store.insertSessionSignal(record("warm-up", 0));
  await store.flush();
  return store;
}

describe("a PostgresSignalStore whose server goes away mid-run", () => {
  it("queues and retries, and loses nothing when the server is back within the retry window", async () => {
    const store = await open(30_000);
    server.stop();
    for (let i = 0; i < 5; i++) store.insertSessionSignal(record("outage", i));
    await sleep(600);
    expect(store.pendingWrites).toBe(5);
    expect(store.busyRetries).toBeGreaterThan(1);
    expect(store.droppedWrites).toBe(0);
    server.start();
    for (let i = 5; i < 8; i++) store.insertSessionSignal(record("outage", i));
    await store.flush();
    expect(store.droppedWrites).toBe(0);
    expect((await store.listSessionSignals("outage")).map((r) => r.payload["i"])).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(logs.filter((l) => l.level === "error")).toEqual([]);
  });

  it("drops what it could not write once the retry window is over, logs the count without the password, then recovers", async () => {
    const store = await open(1_000);
    const observer = new SessionObserver();
    observer.bindDbPersistence("user-code", store);
    server.stop();
    // User code keeps running: emit resolves, nothing is thrown.
    for (let i = 0; i < 3; i++) await expect(observer.emit(i)).resolves.toEqual([]);
    const started = Date.now();
    await observer.flush();
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
    expect(store.droppedWrites).toBe(3);
    expect(store.pendingWrites).toBe(0);
    const errors = logs.filter((l) => l.level === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]!.msg).toMatch(new RegExp(`^Dropped 3 signal\\(s\\) for postgres://${PASSWORD_USER.user}@127\\.0\\.0\\.1:${server.port}/postgres: `));
    expect(errors[0]!.msg).toContain("ECONNREFUSED");
    expect(errors[0]!.fields).toMatchObject({ count: 3 });
    expect(errors[0]!.fields["err"]).toBeInstanceOf(SignalStoreUnreachableError);
    expect(JSON.stringify(errors[0])).not.toContain(PASSWORD_USER.password);

    server.start();
    await observer.emit("after");
    await observer.flush();
    // Where the three were lost, a marker row says so; then the record goes on.
    const rows = await store.listSessionSignals("user-code");
    expect(rows.map((r) => [r.kind, r.payload["count"] ?? r.payload["data"]])).toEqual([
      [SIGNALS_DROPPED_KIND, 3],
      ["Signal", "after"],
    ]);
  });

  it("a long outage during a loop of awaited emits logs a line per flush at most (and a second apart), never one per signal, and every drop is in a line", async () => {
    const store = await open(300);
    const observer = new SessionObserver();
    observer.bindDbPersistence("long-outage", store);
    server.stop();
    const signals = 20_000;
    const started = Date.now();
    // A thousand signals per turn of the event loop, spread over a few seconds: many flushes, several give-ups.
    for (let i = 0; i < signals; i++) {
      await observer.emit({ i });
      if (i % 1_000 === 999) await sleep(100);
    }
    await observer.flush();
    expect(store.droppedWrites).toBe(signals);
    const lines = () => logs.filter((l) => l.level === "error");
    const reported = () => lines().reduce((sum, l) => sum + Number(l.fields["count"]), 0);
    // The drops of the last second are reported once that second is over, not forgotten.
    await vi.waitFor(() => expect(reported()).toBe(signals), { timeout: 10_000, interval: 100 });
    const seconds = (Date.now() - started) / 1000;
    expect(lines().length).toBeGreaterThan(1);
    expect(lines().length).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    expect(lines().every((l) => /^Dropped [\d,]+ signal\(s\) for postgres:\/\//.test(l.msg))).toBe(true);
  });

  it("drops within a second of the last drop line are logged once that second is over, not lost from the log", async () => {
    const store = await open(300);
    const observer = new SessionObserver();
    observer.bindDbPersistence("quick-drops", store);
    server.stop();
    await observer.emit(1);
    await observer.flush(); // given up after the retry window: the first line
    expect(logs.filter((l) => l.level === "error")).toHaveLength(1);
    await observer.emit(2);
    await observer.emit(3);
    await observer.flush(); // given up again, well within a second of that line
    await store.close();
    expect(store.droppedWrites).toBe(3);
    await vi.waitFor(() => expect(logs.filter((l) => l.level === "error").map((l) => l.fields["count"])).toEqual([1, 2]), { timeout: 5_000, interval: 50 });
  });

  it("close() during an outage makes one last attempt, then drops and logs instead of hanging or throwing", async () => {
    const store = await open(30_000);
    server.stop();
    store.insertSessionSignal(record("closing", 1));
    await sleep(200);
    const started = Date.now();
    await store.close();
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(store.droppedWrites).toBe(1);
    expect(logs.filter((l) => l.level === "error").map((l) => l.msg)).toEqual([expect.stringMatching(/^Dropped 1 signal\(s\) for postgres:\/\//)]);
  });
});
