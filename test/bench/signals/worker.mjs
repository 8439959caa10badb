// One measurement of the signals bench, in a fresh process against the built runtime
// (runtime/dist, as users get it). Usage: node worker.mjs <scenario> <count> [database]
// Prints one JSON line: what it did, its CPU time (process.cpuUsage, all threads) and wall time.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createConnection } from "node:net";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import {
  AgentSpec,
  Branch,
  HookPoint,
  Session,
  Signal,
  SqliteSignalStore,
  Tool,
  act,
  attachHooks,
  encodeSignal,
  flushLive,
  parseLiveEnv,
  redactValue,
  toJsonSafe,
} from "../../../runtime/dist/index.js";

const [scenario, countText, database] = process.argv.slice(2);
const count = Number(countText);
/**
 * Emits between two turns. Below the pipeline's batch size (1,000), so batches flush at the end
 * of the turn, as in a program whose emits sit between awaited I/O; a loop that never yields is
 * the burst scenarios' case.
 */
const TURN = 500;

/** A typical recorded signal's data: a tool step with a short result, about 250 bytes of JSON. */
function data(i) {
  return { step: i, tool: "lookup", callId: `call-${i}`, arguments: { key: "user-42", limit: 10 }, resultSummary: "found 3 rows: alpha, beta, gamma ".repeat(4) };
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * CPU of the main (emitting) thread alone, from Linux's per-thread accounting (clock ticks, so
 * 10 ms resolution): process.cpuUsage also counts V8's GC and compiler helper threads. null
 * where /proc is missing.
 */
function mainThreadCpuMs() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
const TICKS_PER_SECOND = 100;

/**
 * `count` awaited emits, yielding a turn every TURN of them: a program emitting steadily. Returns
 * the CPU spent in the emits themselves (the hot path, ms): everything but the turns, where the
 * batches are flushed, encoded and written.
 */
async function steadyEmits(session) {
  let inEmits = 0;
  for (let start = 0; start < count; start += TURN) {
    const cpu0 = cpuMs();
    for (let i = start; i < Math.min(count, start + TURN); i++) await session.emit(data(i));
    inEmits += cpuMs() - cpu0;
    await turn();
  }
  return inEmits;
}

async function measured(work) {
  const cpu0 = cpuMs();
  const thread0 = mainThreadCpuMs();
  const t0 = performance.now();
  const extra = (await work()) ?? {};
  const thread1 = mainThreadCpuMs();
  const threadCpuMs = thread0 === null || thread1 === null ? null : thread1 - thread0;
  return { scenario, count, cpuMs: cpuMs() - cpu0, threadCpuMs, wallMs: performance.now() - t0, ...extra };
}

const scenarios = {
  /** No sink at all: what emitting costs by itself. */
  async emitOnly() {
    return measured(async () => ({ emitCpuMs: await steadyEmits(new Session()) }));
  },
  /** Live on (HOOKLENS_LIVE set by the bench): emit, flush, and wait until the socket took it all. */
  async live() {
    return measured(async () => {
      const emitCpuMs = await steadyEmits(new Session());
      await flushLive();
      return { emitCpuMs };
    });
  },
  /** The floor: the same frames written by hand, JSON.stringify per line, one write per turn. */
  async rawLive() {
    const { endpoint, token } = parseLiveEnv(process.env.HOOKLENS_LIVE);
    const socket = createConnection(endpoint);
    await new Promise((resolve) => socket.once("connect", resolve));
    return measured(async () => {
      socket.write(JSON.stringify({ type: "hello", protocol: 1, token, pid: process.pid, title: "raw" }) + "\n");
      const sessionId = randomUUID();
      for (let start = 0; start < count; start += TURN) {
        let text = "";
        for (let i = start; i < Math.min(count, start + TURN); i++) {
          const payload = { data: data(i), schemaVersion: 1, metadata: {}, createdAt: Date.now() / 1000 };
          text += JSON.stringify({ type: "signal", sessionId, branchId: null, id: randomUUID(), kind: "Signal", createdAt: payload.createdAt, payload }) + "\n";
        }
        if (!socket.write(text)) await new Promise((resolve) => socket.once("drain", resolve));
        else await turn();
      }
      socket.write(JSON.stringify({ type: "bye" }) + "\n");
      await new Promise((resolve) => socket.end(resolve));
    });
  },
  /** Persisted to SQLite through the signal pipeline; the rows are counted back. */
  async sqlite() {
    const store = await SqliteSignalStore.open(database);
    const session = new Session();
    session.observer.bindDbPersistence(session.id, store);
    const result = await measured(async () => {
      const emitCpuMs = await steadyEmits(session);
      await session.observer.flush();
      return { emitCpuMs };
    });
    return { ...result, rows: rowsOf(store), dropped: store.droppedWrites };
  },
  /** The floor: node-sqlite3-wasm directly, one prepared INSERT reused, a transaction per TURN rows. */
  async sqliteRaw() {
    (await SqliteSignalStore.open(database)).close(); // the same file and schema
    const { Database } = createRequire(import.meta.url)("node-sqlite3-wasm");
    const db = new Database(database);
    db.exec("PRAGMA journal_mode = TRUNCATE");
    const insert = db.prepare("INSERT INTO session_signals (session_id, kind, op_id, ts, payload) VALUES (?, ?, ?, ?, ?)");
    const sessionId = randomUUID();
    const result = await measured(async () => {
      for (let start = 0; start < count; start += TURN) {
        db.exec("BEGIN IMMEDIATE");
        for (let i = start; i < Math.min(count, start + TURN); i++) {
          const payload = { data: data(i), schemaVersion: 1, metadata: {}, createdAt: Date.now() / 1000 };
          insert.run([sessionId, "Signal", "", Date.now() / 1000, JSON.stringify(payload)]);
        }
        db.exec("COMMIT");
        await turn();
      }
    });
    const rows = Number(db.get("SELECT count(*) AS n FROM session_signals").n);
    insert.finalize();
    db.close();
    return { ...result, rows, dropped: 0 };
  },
  /**
   * A burst that never yields a macrotask (`for … await emit`) into SQLite with the default
   * settings; heap (after a full GC) once 10 % of it is emitted and at the end.
   */
  async burstSqlite() {
    const store = await SqliteSignalStore.open(database);
    const session = new Session();
    session.observer.bindDbPersistence(session.id, store);
    const branch = session.newBranch();
    let heapAtTenth = 0;
    const result = await measured(async () => {
      for (let i = 0; i < count; i++) {
        await session.emit(data(i));
        if (i === count / 10 - 1) heapAtTenth = heapAfterGc();
      }
      await session.observer.flush();
    });
    void branch;
    return { ...result, rows: rowsOf(store), dropped: store.droppedWrites, heapAtTenthMb: heapAtTenth, heapAtEndMb: heapAfterGc() };
  },
  /** The same burst into the live stream: everything arrives, or what did not is reported as dropped. */
  async burstLive() {
    const session = new Session();
    return measured(async () => {
      for (let i = 0; i < count; i++) await session.emit(data(i));
      await flushLive();
    });
  },
  /**
   * What encoding one signal costs, step by step, against the floor (one JSON.stringify
   * of the whole frame): µs of CPU per signal, the median of three passes over `count` signals.
   */
  async encodeCost() {
    const signals = Array.from({ length: count }, (_, i) => new Signal({ data: data(i) }));
    const perSignal = (fn) => {
      const passes = [];
      for (let pass = 0; pass < 4; pass++) {
        const cpu0 = cpuMs();
        for (const signal of signals) fn(signal);
        passes.push(((cpuMs() - cpu0) * 1000) / count);
      }
      return passes.slice(1).sort((a, b) => a - b)[1]; // the first pass warms up
    };
    return {
      scenario,
      count,
      frameStringifyUs: perSignal((signal) => JSON.stringify({ type: "signal", sessionId: "s", branchId: null, id: signal.id, kind: "Signal", createdAt: signal.createdAt, payload: signal })),
      toJsonSafeUs: perSignal((signal) => toJsonSafe(signal.data)),
      redactUs: perSignal((signal) => redactValue(signal.data)),
      encodeUs: perSignal((signal) => encodeSignal(signal, 0)),
    };
  },
  /** One tool call through act(): on a branch of a Session (bus, observer, HookSignals) and on a standalone branch. */
  async act() {
    const tool = () => {
      const spec = new AgentSpec();
      spec.pre("lookup", (_tool, _action, args) => ({ ...args, traced: true }));
      spec.post("lookup", (_tool, _action, _args, result) => ({ ...result, checked: true }));
      return attachHooks(new Tool({ funcCallable: (args) => ({ key: args.key, value: 42 }), name: "lookup" }), spec, "lookup");
    };
    const session = new Session();
    void session.hooks; // the bus exists before the branch joins, so its calls go through it
    const inSession = session.newBranch();
    inSession.registerTools(tool());
    const standalone = new Branch().registerTools(tool());
    const request = { function: "lookup", arguments: { key: "k" } };
    // A full collection before each measurement, outside it: neither mode pays for garbage the
    // other left. Each measurement is long enough (count calls, about a second) to pay for the
    // collections its own garbage causes.
    const calls = async (branch) => {
      globalThis.gc?.();
      const cpu0 = cpuMs();
      for (let i = 0; i < count; i++) await act(branch, request);
      return cpuMs() - cpu0;
    };
    // Warm both paths, then alternate in ABBA order so load changes on the machine hit both alike.
    await calls(inSession);
    await calls(standalone);
    const withSession = [];
    const without = [];
    for (let round = 0; round < 4; round++) {
      const order = round % 2 === 0 ? [inSession, standalone] : [standalone, inSession];
      for (const branch of order) (branch === inSession ? withSession : without).push(await calls(branch));
    }
    /** The mean of the middle two of four. */
    const median = (values) => {
      const sorted = [...values].sort((a, b) => a - b);
      return (sorted[1] + sorted[2]) / 2;
    };
    return { scenario, count, withSessionUs: (median(withSession) * 1000) / count, withoutUs: (median(without) * 1000) / count, heapMb: heapAfterGc() };
  },
};

function heapAfterGc() {
  globalThis.gc?.();
  globalThis.gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

function rowsOf(store) {
  return store.listSessions().reduce((sum, s) => sum + s.signalCount, 0);
}

const run = scenarios[scenario];
if (!run) throw new Error(`unknown scenario ${scenario}`);
process.stdout.write(JSON.stringify(await run()) + "\n");
