import { describe, expect, it } from "vitest";
import {
  GateDenied,
  HookPoint,
  HookSignal,
  Message,
  MessageAdded,
  PAYLOAD_BYTE_CAP,
  RunEnd,
  Signal,
  capPayload,
  sanitizeSignalPayload,
  toJsonSafe,
  type JsonObject,
} from "@hooklens/runtime";

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe("sanitizeSignalPayload fields", () => {
  it("keeps createdAt, metadata (even empty) and schemaVersion, and leaves out id and emitterRole", () => {
    const signal = new Signal({ data: 1, emitterRole: "planner", createdAt: 10 });
    const payload = sanitizeSignalPayload(signal);
    expect(Object.keys(payload)).toEqual(["createdAt", "metadata", "schemaVersion", "data"]);
    expect(payload).toEqual({ createdAt: 10, metadata: {}, schemaVersion: 1, data: 1 });
  });

  it("includes subclass fields, zero values included, in declaration order", () => {
    const payload = sanitizeSignalPayload(new RunEnd({ createdAt: 1 }));
    expect(Object.keys(payload)).toEqual([
      "createdAt",
      "metadata",
      "schemaVersion",
      "inputTokens",
      "outputTokens",
      "totalCostUsd",
      "numTurns",
      "durationMs",
    ]);
    expect(payload["durationMs"]).toBe(0);
  });

  it("skips fields that are null, undefined or the empty string", () => {
    const signal = new Signal({ createdAt: 1 }) as Signal & { note?: string; gone?: null };
    signal.note = "";
    signal.gone = null;
    expect(sanitizeSignalPayload(signal)).toEqual({ createdAt: 1, metadata: {}, schemaVersion: 1 });
  });

  it("has no data key when data is null or undefined", () => {
    expect(sanitizeSignalPayload(new Signal({ createdAt: 1 }))).not.toHaveProperty("data");
  });

  it("serialises a HookSignal's point and payload copy", () => {
    const payload = sanitizeSignalPayload(new HookSignal(HookPoint.TOOL_PRE, { toolName: "read" }, { createdAt: 1 }));
    expect(payload).toMatchObject({ point: "tool.pre", payload: { toolName: "read" } });
  });

  it("makes data JSON-safe: errors, bigints, functions and cycles become JSON", () => {
    const cyclic: Record<string, unknown> = { n: 1n, fn: function named() {} };
    cyclic["self"] = cyclic;
    const payload = sanitizeSignalPayload(new GateDenied({ data: { error: new TypeError("bad"), cyclic }, createdAt: 1 }));
    expect(payload["data"]).toEqual({
      error: { name: "TypeError", message: "bad" },
      cyclic: { n: "1", fn: "[Function named]", self: "[Circular]" },
    });
    expect(() => JSON.stringify(payload)).not.toThrow();
  });
});

describe("MessageAdded serialisation", () => {
  it("carries only a messageRef of id, role, sender and recipient, never the body or a data key", () => {
    const message = new Message({ role: "user", content: "secret body", sender: "alice", id: "m1" });
    const payload = sanitizeSignalPayload(new MessageAdded({ data: message, createdAt: 1 }));
    expect(payload["messageRef"]).toEqual({ id: "m1", role: "user", sender: "alice" });
    expect(payload).not.toHaveProperty("data");
    expect(JSON.stringify(payload)).not.toContain("secret body");
  });

  it("stringifies the reference values", () => {
    const payload = sanitizeSignalPayload(new MessageAdded({ data: { id: 7, role: "user", recipient: 3 }, createdAt: 1 }));
    expect(payload["messageRef"]).toEqual({ id: "7", role: "user", recipient: "3" });
  });
});

describe("the 16 KiB payload cap", () => {
  it("is 16,384 bytes", () => {
    expect(PAYLOAD_BYTE_CAP).toBe(16_384);
  });

  it("returns a payload at or under the cap unchanged", () => {
    const payload: JsonObject = { data: "x".repeat(PAYLOAD_BYTE_CAP - 20) };
    expect(bytes(payload)).toBeLessThanOrEqual(PAYLOAD_BYTE_CAP);
    expect(capPayload(payload)).toBe(payload);
  });

  it("replaces a payload over the cap by {truncated, originalBytes, data} in that key order", () => {
    const payload: JsonObject = { data: "x".repeat(40_000) };
    const capped = capPayload(payload);
    expect(Object.keys(capped)).toEqual(["truncated", "originalBytes", "data"]);
    expect(capped["truncated"]).toBe(true);
    expect(capped["originalBytes"]).toBe(bytes(payload));
  });

  it("makes data a clipped prefix of the original compact JSON string, as long as fits", () => {
    const payload: JsonObject = { data: "x".repeat(40_000) };
    const capped = capPayload(payload);
    const clipped = capped["data"] as string;
    expect(JSON.stringify(payload).startsWith(clipped)).toBe(true);
    expect(bytes(capped)).toBe(PAYLOAD_BYTE_CAP);
  });

  it("stays at or under the cap when JSON escaping makes the clipped text grow", () => {
    const capped = capPayload({ data: '"\\'.repeat(20_000) });
    expect(capped["truncated"]).toBe(true);
    expect(bytes(capped)).toBeLessThanOrEqual(PAYLOAD_BYTE_CAP);
    expect(JSON.stringify({ data: '"\\'.repeat(20_000) }).startsWith(capped["data"] as string)).toBe(true);
  });

  it("is multibyte-safe: a character cut in half becomes U+FFFD and the result stays under the cap", () => {
    for (let shift = 0; shift < 4; shift++) {
      const capped = capPayload({ data: "a".repeat(shift) + "🙂".repeat(10_000) });
      const clipped = capped["data"] as string;
      expect(bytes(capped)).toBeLessThanOrEqual(PAYLOAD_BYTE_CAP);
      expect(clipped).not.toMatch(/[\uD800-\uDBFF]$/);
      expect(clipped.replace(/\uFFFD$/, "")).toMatch(/🙂$/);
    }
  });

  it("falls back to empty data when nothing fits", () => {
    // 48 bytes is exactly the bounded object with empty data: no clipped text fits.
    const capped = capPayload({ data: "é".repeat(100) }, 48);
    expect(capped).toEqual({ truncated: true, originalBytes: bytes({ data: "é".repeat(100) }), data: "" });
  });

  it("applies to sanitised signals", () => {
    const payload = sanitizeSignalPayload(new Signal({ data: "y".repeat(50_000) }));
    expect(payload["truncated"]).toBe(true);
    expect(bytes(payload)).toBeLessThanOrEqual(PAYLOAD_BYTE_CAP);
  });
});

describe("toJsonSafe", () => {
  it("converts Maps, Sets, Dates and non-finite numbers", () => {
    expect(
      toJsonSafe({ m: new Map([["k", 1]]), s: new Set([1, 2]), d: new Date(0), inf: Infinity, u: undefined }),
    ).toEqual({ m: [["k", 1]], s: [1, 2], d: "1970-01-01T00:00:00.000Z", inf: "Infinity" });
  });

  it("reports a throwing getter instead of raising", () => {
    const value = Object.defineProperty({}, "bad", {
      enumerable: true,
      get() {
        throw new Error("nope");
      },
    });
    expect(toJsonSafe(value)).toEqual({ bad: "[getter threw: nope]" });
  });
});
