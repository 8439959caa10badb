import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  GateDenied,
  InMemorySignalStore,
  Message,
  MessageAdded,
  PAYLOAD_BYTE_CAP,
  SessionObserver,
  Signal,
  setDefaultSignalStore,
  type SessionSignalRecord,
  type SignalStore,
} from "@hooklens/runtime";
import { captureLogs, type CapturedLog } from "../../helpers/captureLogs.js";

const TEST_FILE = fileURLToPath(import.meta.url);

let logs: CapturedLog[];
let restore: () => void;
beforeEach(() => ({ logs, restore } = captureLogs()));
afterEach(() => {
  restore();
  setDefaultSignalStore(null);
});

class NodeStarted extends Signal {
  opId = "op-7";
}

describe("bindDbPersistence", () => {
  it("writes one record per dispatched signal: session id, class name as kind, empty opId, time and sanitised payload", async () => {
    const observer = new SessionObserver();
    const store = new InMemorySignalStore();
    observer.bindDbPersistence("session-1", store);
    const before = Date.now() / 1000;
    const signal = new Signal({ data: { step: 1 }, createdAt: 5 });
    await observer.emit(signal);
    await observer.flush();
    const [record] = store.listSessionSignals("session-1");
    expect(record).toMatchObject({
      sessionId: "session-1",
      kind: "Signal",
      opId: "",
      payload: { createdAt: 5, metadata: {}, schemaVersion: 1, data: { step: 1 } },
    });
    expect(record!.ts).toBeGreaterThanOrEqual(before - 0.001);
  });

  it("takes opId from a signal that has one", async () => {
    const observer = new SessionObserver();
    const store = new InMemorySignalStore();
    observer.bindDbPersistence("s", store);
    await observer.emit(new NodeStarted());
    await observer.flush();
    expect(store.records[0]).toMatchObject({ kind: "NodeStarted", opId: "op-7" });
  });

  it("persists a MessageAdded with a message reference and without the message body", async () => {
    const observer = new SessionObserver();
    const store = new InMemorySignalStore();
    observer.bindDbPersistence("s", store);
    await observer.emit(new MessageAdded({ data: new Message({ id: "m1", role: "user", content: "private" }) }));
    await observer.flush();
    expect(store.records[0]!.payload["messageRef"]).toEqual({ id: "m1", role: "user" });
    expect(JSON.stringify(store.records[0])).not.toContain("private");
  });

  it("writes the capped payload for a signal over 16 KiB", async () => {
    const observer = new SessionObserver();
    const store = new InMemorySignalStore();
    observer.bindDbPersistence("s", store);
    await observer.emit(new Signal({ data: "z".repeat(30_000) }));
    await observer.flush();
    const payload = store.records[0]!.payload;
    expect(payload["truncated"]).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(payload))).toBeLessThanOrEqual(PAYLOAD_BYTE_CAP);
  });

  it("does not persist gate-denied emissions, but persists the GateDenied of an authorize denial", async () => {
    const observer = new SessionObserver();
    const store = new InMemorySignalStore();
    observer.bindDbPersistence("s", store);
    observer.gate(() => false); // the line the GateDenied's metadata points at
    await observer.emit(1);
    await observer.authorize({ function: "rm", branchId: "b1" });
    await observer.flush();
    expect(observer.byType(GateDenied)).toHaveLength(1);
    expect(store.records.map((r) => [r.kind, r.payload["data"], r.payload["metadata"]])).toEqual([
      [
        "GateDenied",
        { function: "rm", branchId: "b1" },
        { branchId: "b1", reason: "the gate returned false", hook: "observer.gate:anonymous", location: { file: TEST_FILE, line: 84, column: 14 } },
      ],
    ]);
  });

  it("swallows and logs a store failure; emit still resolves", async () => {
    const observer = new SessionObserver();
    const failing: SignalStore = {
      insertSessionSignal: async () => {
        throw new Error("disk full");
      },
      listSessionSignals: () => [],
    };
    observer.bindDbPersistence("s", failing);
    await expect(observer.emit(1)).resolves.toEqual([]);
    await observer.flush();
    expect(logs.some((l) => l.level === "error" && l.msg.includes("disk full"))).toBe(true);
  });

  it("without a store writes to the default SignalStore current at each write", async () => {
    const observer = new SessionObserver();
    observer.bindDbPersistence("s");
    await observer.emit(1);
    await observer.flush();
    const store = new InMemorySignalStore();
    setDefaultSignalStore(store);
    await observer.emit(2);
    await observer.flush();
    expect(store.records.map((r: SessionSignalRecord) => r.payload["data"])).toEqual([2]);
  });

  it("unbindDbPersistence stops writing", async () => {
    const observer = new SessionObserver();
    const store = new InMemorySignalStore();
    observer.bindDbPersistence("s", store);
    await observer.emit(1);
    await observer.flush();
    observer.unbindDbPersistence();
    await observer.emit(2);
    await observer.flush();
    expect(store.records).toHaveLength(1);
  });

  it("binding twice adds a second writer, and unbinding removes only the latest", async () => {
    const observer = new SessionObserver();
    const first = new InMemorySignalStore();
    const second = new InMemorySignalStore();
    observer.bindDbPersistence("s", first);
    observer.bindDbPersistence("s", second);
    observer.unbindDbPersistence();
    await observer.emit(1);
    await observer.flush();
    expect(first.records).toHaveLength(1);
    expect(second.records).toHaveLength(0);
  });
});

describe("InMemorySignalStore", () => {
  it("lists the records of one session in insertion order", () => {
    const store = new InMemorySignalStore();
    const record = (sessionId: string, ts: number): SessionSignalRecord => ({ sessionId, kind: "Signal", opId: "", ts, payload: {} });
    store.insertSessionSignal(record("a", 1));
    store.insertSessionSignal(record("b", 2));
    store.insertSessionSignal(record("a", 3));
    expect(store.listSessionSignals("a").map((r) => r.ts)).toEqual([1, 3]);
  });
});
