import { afterEach, describe, expect, it, vi } from "vitest";
import { ADD_DEFERRED, Flow } from "../../../runtime/src/session/flow.js";
import { Signal } from "../../../runtime/src/session/signal.js";
import type { SignalMaker } from "../../../runtime/src/signals/signalRecorder.js";

/**
 * The flow's deferred entries (what a Session records when nothing reads its signals at once):
 * the signal is built from its parts only when the flow is read, once, in its place, and an
 * entry that leaves the kept window unread is never built.
 */

/** A maker that counts what it builds: the source is the signal's data. */
function countingMaker(): SignalMaker<string> & { built: string[] } {
  const built: string[] = [];
  return {
    built,
    event: (source) => new Signal({ data: source }),
    build(source, branchId, createdAt) {
      built.push(source);
      return new Signal({ data: source, createdAt, metadata: branchId === undefined ? undefined : { branchId } });
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("Flow: deferred entries", () => {
  it("are built when the flow is read, once, with the time and branch they were recorded with", () => {
    const flow = new Flow("f", 10);
    const maker = countingMaker();
    flow[ADD_DEFERRED](maker, "a", "branch-1", 1_000.5);
    flow[ADD_DEFERRED](maker, "b", undefined, 1_001.25);
    expect(maker.built).toEqual([]);
    expect(flow.size).toBe(2);
    const first = flow.items;
    expect(maker.built).toEqual(["a", "b"]);
    expect(first.map((s) => [s.data, s.createdAt, s.metadata])).toEqual([
      ["a", 1_000.5, { branchId: "branch-1" }],
      ["b", 1_001.25, {}],
    ]);
    // Read again: the same objects (so the same ids), nothing built twice.
    const second = flow.items;
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    expect(maker.built).toEqual(["a", "b"]);
    expect(flow.has(first[0]!.id)).toBe(true);
  });

  it("keep their place among signals added as objects, and the window's bound", () => {
    const flow = new Flow("f", 4);
    const maker = countingMaker();
    const plain = (data: string): Signal => new Signal({ data });
    flow.add(plain("p1"));
    flow[ADD_DEFERRED](maker, "d1", undefined, 1);
    flow.add(plain("p2"));
    flow[ADD_DEFERRED](maker, "d2", undefined, 2);
    flow[ADD_DEFERRED](maker, "d3", undefined, 3);
    flow.add(plain("p3"));
    flow[ADD_DEFERRED](maker, "d4", undefined, 4);
    // d1 and the first two plain ones left the window before anything read it: never built.
    expect(flow.items.map((s) => s.data)).toEqual(["d2", "d3", "p3", "d4"]);
    expect(maker.built).toEqual(["d2", "d3", "d4"]);
    flow[ADD_DEFERRED](maker, "d5", undefined, 5);
    flow.add(plain("p4"));
    expect(flow.items.map((s) => s.data)).toEqual(["p3", "d4", "d5", "p4"]);
    expect(maker.built).toEqual(["d2", "d3", "d4", "d5"]);
  });

  it("once built, count as kept: the same object is not added again while kept, and is after it left", () => {
    const flow = new Flow("f", 3);
    const maker = countingMaker();
    flow[ADD_DEFERRED](maker, "a", undefined, 1);
    const [a] = flow.items;
    expect(flow.add(a!)).toBe(false);
    flow[ADD_DEFERRED](maker, "b", undefined, 2);
    flow[ADD_DEFERRED](maker, "c", undefined, 3);
    const [, b] = flow.items;
    expect(flow.add(b!)).toBe(false);
    expect(flow.add(a!)).toBe(false);
    flow[ADD_DEFERRED](maker, "d", undefined, 4);
    // `a` left the window: stored again as the newest.
    expect(flow.add(a!)).toBe(true);
    expect(flow.items.map((s) => s.data)).toEqual(["c", "d", "a"]);
  });

  it("are built at once in a flow that keeps an id index (a caller chose an id)", () => {
    const flow = new Flow("f", 5);
    const maker = countingMaker();
    flow.add(new Signal({ id: "chosen", data: "x" }));
    flow[ADD_DEFERRED](maker, "a", undefined, 1);
    expect(maker.built).toEqual(["a"]);
    flow[ADD_DEFERRED](maker, "b", undefined, 2);
    expect(flow.items.map((s) => s.data)).toEqual(["x", "a", "b"]);
    // Entries deferred before the index was needed are built when it is.
    const other = new Flow("g", 5);
    other[ADD_DEFERRED](maker, "c", undefined, 3);
    other.add(new Signal({ id: "chosen", data: "y" }));
    expect(maker.built).toEqual(["a", "b", "c"]);
    expect(other.items.map((s) => s.data)).toEqual(["c", "y"]);
    expect(other.has(other.items[0]!.id)).toBe(true);
  });

  it("carry the time they were recorded, not the time they were read", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
    const flow = new Flow("f", 5);
    const recorded = Date.now() / 1000;
    flow[ADD_DEFERRED](countingMaker(), "a", undefined, recorded);
    vi.setSystemTime(new Date("2026-01-02T00:00:00Z"));
    expect(flow.items[0]!.createdAt).toBe(recorded);
  });
});
