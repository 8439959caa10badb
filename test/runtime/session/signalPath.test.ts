// The one signal path: emit only records, a batch flush serialises once for every sink, memory
// stays bounded, and bad input at its boundary gets a clear error instead of a late failure.
import { spawn } from "node:child_process";
import { mkdirSync, rmdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  Flow,
  InvalidValueError,
  GateDenied,
  HookBus,
  HookPoint,
  HookSignal,
  InMemorySignalStore,
  MessageAdded,
  RunEnd,
  RunFailed,
  RunStart,
  SIGNALS_DROPPED_KIND,
  Session,
  SessionObserver,
  Signal,
  SqliteSignalStore,
  configureSignals,
  encodeSignal,
  queuedSignals,
  signalKind,
  type EncodedSignal,
  type SignalStore,
} from "@hooklens/runtime";
import { captureLogs, type CapturedLog } from "../../helpers/captureLogs.js";
import { createTempDir } from "../../helpers/tempDir.js";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";
import { bundledFixture } from "../../helpers/bundledFixture.js";

let logs: CapturedLog[];
let restore: () => void;
let temp: ReturnType<typeof createTempDir>;
beforeEach(() => {
  ({ logs, restore } = captureLogs());
  temp = createTempDir("hooklens-path-");
});
afterEach(() => {
  restore();
  temp.dispose();
});

describe("signal kinds", () => {
  it("are explicit names per runtime class, so a bundler renaming classes cannot change them", () => {
    const kinds = [Signal, HookSignal, MessageAdded, GateDenied, RunStart, RunFailed, RunEnd].map((type) => type.kind);
    expect(kinds).toEqual(["Signal", "HookSignal", "MessageAdded", "GateDenied", "RunStart", "RunFailed", "RunEnd"]);
    expect(signalKind(new HookSignal("tool.pre"))).toBe("HookSignal");
  });

  it("fall back to the class name for a user's subclass that declares none, and honour one that does", () => {
    class NodeStarted extends Signal {}
    class Renamed extends Signal {
      static override readonly kind = "Planning";
    }
    expect(signalKind(new NodeStarted())).toBe("NodeStarted");
    expect(signalKind(new Renamed())).toBe("Planning");
  });
});

describe("bad input at the boundary", () => {
  it("HookBus.on refuses a handler that is not a function when registering, not at emit", () => {
    const bus = new HookBus();
    expect(() => bus.on(HookPoint.SESSION_START, 42 as never)).toThrow(InvalidValueError);
    expect(() => bus.on(HookPoint.SESSION_START, 42 as never)).toThrow(/handler must be a function, got a number \(42\)/);
    expect(bus.handlersFor(HookPoint.SESSION_START)).toEqual([]);
  });

  it("bindDbPersistence refuses a missing session id or something that is not a store", () => {
    const observer = new SessionObserver();
    expect(() => observer.bindDbPersistence(null as never)).toThrow(/sessionId must be a non-empty string, got null/);
    expect(() => observer.bindDbPersistence("")).toThrow(InvalidValueError);
    expect(() => observer.bindDbPersistence("s", {} as SignalStore)).toThrow(/store must be a SignalStore/);
  });

  it("a cyclic payload or a BigInt never throws into emit; the record marks the cycle and writes the BigInt as a string", async () => {
    const session = new Session();
    const store = new InMemorySignalStore();
    session.observer.bindDbPersistence(session.id, store);
    const cyclic: Record<string, unknown> = { big: 12345678901234567890n };
    cyclic["self"] = cyclic;
    await expect(session.hooks.emit(HookPoint.BRANCH_CREATE, cyclic as never)).resolves.toBeUndefined();
    await expect(session.emit(cyclic)).resolves.toEqual([]);
    await session.observer.flush();
    const [hook, plain] = store.records;
    // The HookSignal keeps a copy of the payload, whose `self` still points at the original.
    expect(hook!.payload["payload"]).toEqual({ big: "12345678901234567890", self: { big: "12345678901234567890", self: "[Circular]" } });
    expect(plain!.payload["data"]).toEqual({ big: "12345678901234567890", self: "[Circular]" });
  });
});

describe("one serialisation per signal, off the emit path", () => {
  it("emit only records; the flush hands every sink the same encoded signal", async () => {
    const session = new Session();
    const seen: EncodedSignal[][] = [];
    const encodedStore: SignalStore = {
      insertSessionSignal: () => undefined,
      listSessionSignals: () => [],
      insertEncodedSignals: (_id, batch) => void seen.push([...batch]),
    };
    const second: SignalStore = { ...encodedStore, insertEncodedSignals: (_id, batch) => void seen.push([...batch]) };
    session.observer.bindDbPersistence(session.id, encodedStore);
    session.observer.bindDbPersistence("other-id", second);
    await session.emit({ n: 1 });
    expect(seen).toEqual([]);
    expect(queuedSignals()).toBe(1);
    await session.observer.flush();
    expect(seen).toHaveLength(2);
    expect(seen[0]![0]).toBe(seen[1]![0]);
    expect(seen[0]![0]).toMatchObject({ kind: "Signal", payload: { data: { n: 1 } } });
    expect(JSON.parse(seen[0]![0]!.payloadJson)).toEqual(seen[0]![0]!.payload);
  });

  it("reads the signal's data only in the flush, and once for every sink together", async () => {
    let reads = 0;
    const counted = () => Object.defineProperty({ n: 1 }, "watched", { enumerable: true, get: () => (reads++, "value") });
    // What encoding one signal reads, measured on a signal of its own.
    encodeSignal(new Signal({ data: counted() }), 0);
    const perEncoding = reads;
    expect(perEncoding).toBeGreaterThan(0);
    reads = 0;
    const observer = new SessionObserver();
    const encoded: SignalStore = { insertSessionSignal: () => undefined, listSessionSignals: () => [], insertEncodedSignals: () => undefined };
    const plain = new InMemorySignalStore();
    const lines: string[] = [];
    observer.bindDbPersistence("a", encoded);
    observer.bindDbPersistence("b", plain);
    observer.addSink({ write: (_id, batch) => void lines.push(...batch.map((s) => s.payloadJson)), flush: async () => undefined });
    await observer.emit(new Signal({ data: counted() }));
    expect(reads).toBe(0);
    await observer.flush();
    expect(reads).toBe(perEncoding);
    expect(plain.records[0]!.payload["data"]).toEqual({ n: 1, watched: "value" });
    expect(JSON.parse(lines[0]!)).toEqual(plain.records[0]!.payload);
  });

  it("flushes by size inside a loop of awaited emits that never yields a macrotask", async () => {
    const previous = configureSignals({ batchSize: 100 });
    try {
      const observer = new SessionObserver();
      const store = new InMemorySignalStore();
      observer.bindDbPersistence("s", store);
      for (let i = 0; i < 250; i++) await observer.emit(i);
      expect(store.records).toHaveLength(200);
      await observer.flush();
      expect(store.records.map((r) => r.payload["data"])).toEqual(Array.from({ length: 250 }, (_, i) => i));
    } finally {
      configureSignals(previous);
    }
  });
});

describe("bounded memory", () => {
  it("the once-each rule holds over exactly the kept signals, however many were added", () => {
    const flow = new Flow("f", 3);
    const signals = Array.from({ length: 20 }, (_, i) => new Signal({ id: `s${i}`, data: i }));
    for (const signal of signals) expect(flow.add(signal)).toBe(true);
    expect(flow.items.map((s) => s.id)).toEqual(["s17", "s18", "s19"]);
    for (const kept of ["s17", "s18", "s19"]) expect(flow.has(kept)).toBe(true);
    for (let i = 0; i < 17; i++) expect(flow.has(`s${i}`)).toBe(false);
    // A kept signal is not stored twice; a forgotten one is stored again as the newest.
    expect(flow.add(new Signal({ id: "s18" }))).toBe(false);
    expect(flow.add(new Signal({ id: "s16" }))).toBe(true);
    expect(flow.items.map((s) => s.id)).toEqual(["s18", "s19", "s16"]);
    expect(flow.has("s17")).toBe(false);
    expect(flow.add(new Signal({ id: "s16" }))).toBe(false);
  });

  it("the once-each rule holds for signals with constructor-made ids: the same object twice, one in two flows, a copy of its id", () => {
    const flow = new Flow("f", 3);
    const other = new Flow("g", 3);
    const first = new Signal({ data: 1 });
    expect(flow.add(first)).toBe(true);
    expect(flow.add(first)).toBe(false);
    // Kept by another flow since: still a repeat here.
    expect(other.add(first)).toBe(true);
    expect(flow.add(first)).toBe(false);
    expect(other.add(first)).toBe(false);
    // A signal that only shares the id (chosen by its caller) is a repeat as well.
    const fresh = new Signal({ data: 2 });
    const other2 = new Flow("h", 3);
    expect(other2.add(fresh)).toBe(true);
    expect(other2.add(new Signal({ id: fresh.id, data: "copy" }))).toBe(false);
    expect(other2.items.map((s) => s.data)).toEqual([2]);
    // Forgotten after `keep` newer ones, then stored again as the newest.
    const fourth = new Flow("i", 2);
    const a = new Signal({ data: "a" });
    fourth.add(a);
    fourth.add(new Signal({ data: "b" }));
    fourth.add(new Signal({ data: "c" }));
    expect(fourth.has(a.id)).toBe(false);
    expect(fourth.add(a)).toBe(true);
    expect(fourth.items.map((s) => s.data)).toEqual(["c", "a"]);
    expect(fourth.add(a)).toBe(false);
  });

  it("a branch keeps its most recent keepRecentMessages messages; every one was still streamed as MessageAdded", async () => {
    const previous = configureSignals({ keepRecentMessages: 4 });
    try {
      const session = new Session();
      const store = new InMemorySignalStore();
      session.observer.bindDbPersistence(session.id, store);
      const branch = session.newBranch();
      const added: string[] = [];
      for (let i = 0; i < 10; i++) added.push((await branch.addMessageAsync({ role: "user", content: `m${i}` })).id);
      expect(branch.messages.map((m) => m.content)).toEqual(["m6", "m7", "m8", "m9"]);
      expect(branch.hasMessage(added[5]!)).toBe(false);
      expect(branch.getMessage(added[9]!)?.content).toBe("m9");
      await branch.drainSignals();
      await session.observer.flush();
      expect(store.records.filter((r) => r.kind === "MessageAdded")).toHaveLength(10);
      // Many more than the bound: the kept list never grows past it.
      for (let i = 0; i < 3_000; i++) await branch.addMessageAsync({ role: "user", content: `n${i}` });
      expect(branch.messages.map((m) => m.content)).toEqual(["n2996", "n2997", "n2998", "n2999"]);
    } finally {
      configureSignals(previous);
    }
  });

  it("the observer keeps the most recent signals and named-stream entries; the rest are still persisted", async () => {
    const observer = new SessionObserver({ keepRecentSignals: 3 });
    const store = new InMemorySignalStore();
    observer.bindDbPersistence("s", store);
    observer.route(() => true, { into: "all" });
    for (let i = 0; i < 10; i++) await observer.emit(i);
    await observer.flush();
    expect(observer.flow.items.map((s) => s.data)).toEqual([7, 8, 9]);
    expect(observer.stream("all").map((s) => s.data)).toEqual([7, 8, 9]);
    expect(observer.byType(Signal)).toHaveLength(3);
    expect(store.records).toHaveLength(10);
  });

  it("configureSignals sets the window of a new Session's observer and of each branch log; every signal is still persisted", async () => {
    const previous = configureSignals({ keepRecentSignals: 5 });
    try {
      const session = new Session();
      const store = new InMemorySignalStore();
      session.observer.bindDbPersistence(session.id, store);
      const branch = session.newBranch();
      for (let i = 0; i < 40; i++) await branch.emitAndLog({ i });
      await session.observer.flush();
      expect(branch.logs).toEqual([35, 36, 37, 38, 39].map((i) => ({ i })));
      expect(session.observer.flow.size).toBe(5);
      expect(session.observer.byType(Signal).map((s) => (s.data as { i: number }).i)).toEqual([35, 36, 37, 38, 39]);
      expect(store.records.filter((r) => r.kind === "Signal")).toHaveLength(40);
    } finally {
      configureSignals(previous);
    }
  });

  it("past the pending-work bound a store drops, logs one line per flush and writes a marker where the gap is", async () => {
    const store = await SqliteSignalStore.open(temp.path("signals.db"));
    const observer = new SessionObserver();
    observer.bindDbPersistence("gap", store);
    const lock = `${store.path}.lock`;
    mkdirSync(lock); // another process holds the file: rows wait in memory
    const previous = configureSignals({ maxPendingBytes: 8_000 });
    try {
      for (let i = 0; i < 200; i++) await observer.emit({ i });
      await new Promise((resolve) => setImmediate(resolve)); // the end-of-turn flush
      const rowsWaiting = store.pendingWrites;
      expect(rowsWaiting).toBeGreaterThan(0);
      expect(rowsWaiting).toBeLessThan(200);
      const errors = logs.filter((l) => l.level === "error");
      expect(errors).toHaveLength(1);
      expect(errors[0]!.msg).toMatch(/^Dropped [\d,]+ signal\(s\) for .*signals\.db: more than 8,000 bytes/);
    } finally {
      configureSignals(previous);
      rmdirSync(lock);
    }
    await store.flush();
    const rows = store.listSessionSignals("gap");
    const marker = rows.find((r) => r.kind === SIGNALS_DROPPED_KIND)!;
    const kept = rows.filter((r) => r.kind === "Signal").length;
    expect(kept + Number(marker.payload["count"])).toBe(200);
    expect(store.droppedWrites).toBe(200 - kept);
    store.close();
  });
});

describe("drops a store reports as it closes", () => {
  it("are logged by close() itself, though a drop line was written a moment before (the program may be exiting)", async () => {
    const store = await SqliteSignalStore.open(temp.path("closing.db"), { busyTimeoutMs: 50 });
    const observer = new SessionObserver();
    observer.bindDbPersistence("closing", store);
    const lock = `${store.path}.lock`;
    mkdirSync(lock); // another process holds the file until after the close
    const previous = configureSignals({ maxPendingBytes: 8_000 });
    try {
      for (let i = 0; i < 200; i++) await observer.emit({ i });
      await new Promise((resolve) => setImmediate(resolve));
      // Past the bound: dropped at once; below it: waiting for the lock, given up by close().
      const droppedFirst = store.droppedWrites;
      expect(droppedFirst).toBeGreaterThan(0);
      expect(logs.filter((l) => l.level === "error").map((l) => l.fields["count"])).toEqual([droppedFirst]);
      store.close();
      expect(logs.filter((l) => l.level === "error").map((l) => l.fields["count"])).toEqual([droppedFirst, 200 - droppedFirst]);
      expect(store.droppedWrites).toBe(200);
    } finally {
      configureSignals(previous);
      rmdirSync(lock);
    }
  });
});

describe("an awaited-emit loop into a real SQLite file", () => {
  it("loses nothing and logs nothing for 50,000 signals", async () => {
    const store = await SqliteSignalStore.open(temp.path("loop.db"));
    const session = new Session();
    session.observer.bindDbPersistence(session.id, store);
    for (let i = 0; i < 50_000; i++) await session.emit({ i });
    await session.observer.flush();
    expect(store.listSessions()[0]!.signalCount).toBe(50_000);
    expect(store.droppedWrites).toBe(0);
    expect(logs.filter((l) => l.level !== "debug")).toEqual([]);
    store.close();
  }, 120_000);
});

describe("memory stays flat however long a session runs", () => {
  it("heap after 30,000 act() calls on a Session's branch is within 1.2× the heap after 5,000", async () => {
    const fixture = fileURLToPath(new URL("./fixtures/boundedHeap.mts", import.meta.url));
    const child = spawn(process.execPath, ["--expose-gc", bundledFixture(fixture), "30000"], { cwd: REPO_ROOT });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.on("exit", resolve));
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout.trim().split("\n").pop()!) as { early: number; late: number; messages: number; kept: number };
    // The bounds the fixture configures (1,000 each) hold...
    expect(result.messages).toBe(1_000);
    expect(result.kept).toBe(1_000);
    // ...and nothing else grows with the number of calls (unbounded messages alone add ~2 KB a call).
    expect(result.late / result.early).toBeLessThanOrEqual(1.2);
  }, 180_000);
});
