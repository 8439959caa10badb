import type { JsonObject, SessionSignalRecord } from "@hooklens/runtime";

/** A persisted signal row, with defaults for the fields a test does not care about. */
export function signalRecord(sessionId: string, ts: number, payload: JsonObject = {}, kind = "Signal", opId = ""): SessionSignalRecord {
  return { sessionId, kind, opId, ts, payload };
}

/** 2026-01-02T03:04:05.000Z: the recorded rows below start here, so printed times are known. */
export const RECORDED_T0 = Date.UTC(2026, 0, 2, 3, 4, 5) / 1000;

/** Two sessions as a program records them: a hook signal, an op signal, a multi-line and a truncated payload. */
export const RECORDED_ROWS: readonly SessionSignalRecord[] = [
  signalRecord("sess-alpha", RECORDED_T0, { createdAt: RECORDED_T0, metadata: {}, schemaVersion: 1, point: "tool.pre", payload: { tool: "search" } }, "HookSignal"),
  signalRecord("sess-beta", RECORDED_T0 + 1, { data: "other" }),
  signalRecord("sess-alpha", RECORDED_T0 + 2.5, { data: "line one\nline two" }, "NodeStarted", "op-7"),
  signalRecord("sess-alpha", RECORDED_T0 + 3, { truncated: true, originalBytes: 40_000, data: '{"createdAt":1,"data":"zzzz' }),
];
