import { describe, expect, it } from "vitest";
import {
  GateDenied,
  HookPoint,
  HookSignal,
  InvalidValueError,
  MessageAdded,
  RunEnd,
  RunFailed,
  RunStart,
  SIGNAL_SCHEMA_VERSION,
  Signal,
} from "@hooklens/runtime";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("Signal envelope", () => {
  it("has a UUID v4 id, createdAt in float seconds, empty metadata, null emitterRole and schemaVersion 1", () => {
    const before = Date.now() / 1000;
    const signal = new Signal({ data: { a: 1 } });
    expect(signal.id).toMatch(UUID_V4);
    expect(signal.createdAt).toBeGreaterThanOrEqual(before - 0.001);
    expect(signal.createdAt).toBeLessThan(before + 60);
    expect(signal.metadata).toEqual({});
    expect(signal.data).toEqual({ a: 1 });
    expect(signal.emitterRole).toBeNull();
    expect(signal.schemaVersion).toBe(1);
    expect(SIGNAL_SCHEMA_VERSION).toBe(1);
  });

  it("gives each signal a fresh id", () => {
    expect(new Signal().id).not.toBe(new Signal().id);
  });

  it("equality goes by id only", () => {
    const a = new Signal({ id: "same", data: 1 });
    const b = new Signal({ id: "same", data: 2 });
    expect(a.equals(b)).toBe(true);
    expect(a.equals(new Signal({ data: 1 }))).toBe(false);
    expect(a.equals({ id: "same" })).toBe(false);
  });

  it("accepts createdAt as seconds, a Date, an ISO string or a numeric string", () => {
    expect(new Signal({ createdAt: 1_700_000_000.5 }).createdAt).toBe(1_700_000_000.5);
    expect(new Signal({ createdAt: new Date(1_700_000_000_500) }).createdAt).toBe(1_700_000_000.5);
    expect(new Signal({ createdAt: "2023-11-14T22:13:20.500Z" }).createdAt).toBe(1_700_000_000.5);
    expect(new Signal({ createdAt: "1700000000.5" }).createdAt).toBe(1_700_000_000.5);
  });

  it("rejects a createdAt string that is not a timestamp", () => {
    expect(() => new Signal({ createdAt: "yesterday-ish" })).toThrow(InvalidValueError);
  });
});

describe("HookSignal", () => {
  it("stores the point as its string value and a copy of the payload", () => {
    const payload = { toolName: "read" };
    const signal = new HookSignal(HookPoint.TOOL_PRE, payload);
    payload.toolName = "changed";
    expect(signal.point).toBe("tool.pre");
    expect(signal.point).toBe(HookPoint.TOOL_PRE);
    expect(signal.payload).toEqual({ toolName: "read" });
    expect(signal.data).toBeUndefined();
  });
});

describe("signal subclasses", () => {
  it("MessageAdded and GateDenied add no fields and carry their subject in data", () => {
    const message = { id: "m1" };
    const action = { function: "rm" };
    const added = new MessageAdded({ data: message });
    const denied = new GateDenied({ data: action });
    expect(added).toBeInstanceOf(Signal);
    expect(Object.keys(added)).toEqual(Object.keys(new Signal()));
    expect(Object.keys(denied)).toEqual(Object.keys(new Signal()));
    expect(added.data).toBe(message);
    expect(denied.data).toBe(action);
  });

  it("RunStart and RunFailed add no fields; RunFailed carries the error", () => {
    const error = new Error("x");
    expect(Object.keys(new RunStart())).toEqual(Object.keys(new Signal()));
    expect(new RunFailed({ data: error }).data).toBe(error);
  });

  it("RunEnd has usage fields defaulting to zero", () => {
    expect(new RunEnd()).toMatchObject({ inputTokens: 0, outputTokens: 0, totalCostUsd: 0, numTurns: 0, durationMs: 0 });
    expect(new RunEnd({ data: "r", inputTokens: 3, durationMs: 1.5 })).toMatchObject({ data: "r", inputTokens: 3, durationMs: 1.5 });
  });
});
