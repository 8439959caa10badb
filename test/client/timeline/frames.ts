import type { SignalFrame } from "@hooklens/runtime/live";
import { HookBus, HookPoint, SessionObserver, Signal, ToolCallBlocked, encodeSignal } from "@hooklens/runtime";

let nextId = 0;

/** A HookSignal frame as the runtime streams it: `payload.point` and the handlers' `payload.payload`. */
export function hookFrame(point: string, at: number, payload: Record<string, unknown>, options: { sessionId?: string; branchId?: string | null } = {}): SignalFrame {
  return {
    type: "signal",
    sessionId: options.sessionId ?? "session-1",
    branchId: options.branchId ?? null,
    id: `s${++nextId}`,
    kind: "HookSignal",
    createdAt: at,
    payload: { createdAt: at, metadata: {}, schemaVersion: 1, point, payload },
  };
}

/** Any other signal kind, its fields at the payload's top level (as the runtime encodes them). */
export function kindFrame(kind: string, at: number, fields: Record<string, unknown>, options: { sessionId?: string; branchId?: string | null } = {}): SignalFrame {
  return {
    type: "signal",
    sessionId: options.sessionId ?? "session-1",
    branchId: options.branchId ?? null,
    id: `s${++nextId}`,
    kind,
    createdAt: at,
    payload: { createdAt: at, metadata: {}, schemaVersion: 1, ...fields },
  };
}

/**
 * Frames recorded by the real runtime: a session with an allowed tool call, a failing one and
 * one a TOOL_PRE guard blocked, encoded exactly as the live stream encodes them.
 */
export async function recordedRun(): Promise<SignalFrame[]> {
  const observer = new SessionObserver();
  const bus = new HookBus(observer);
  const sessionId = observer.sessionId;
  await bus.emit(HookPoint.SESSION_START, { sessionId, model: "scripted" });
  await bus.emit(HookPoint.TOOL_PRE, { toolName: "search", callId: "call-1", argsSummary: "{}" });
  await bus.emit(HookPoint.TOOL_POST, { toolName: "search", callId: "call-1", resultSummary: "[]", duration: 0.004 });
  await bus.emit(HookPoint.TOOL_PRE, { toolName: "refund", callId: "call-2", argsSummary: "{}" });
  await bus.emit(HookPoint.TOOL_ERROR, { toolName: "refund", callId: "call-2", error: { name: "RangeError", message: "needs a manager" }, duration: 0.002 });
  await observer.emit(new ToolCallBlocked({ toolName: "deleteFile", callId: "call-3", reason: "paths outside drafts/", hook: "tool.pre:guard" }));
  await bus.emit(HookPoint.SESSION_END, { sessionId, status: "completed" });
  return observer.byType(Signal).map((signal) => {
    const encoded = encodeSignal(signal, signal.createdAt);
    return { type: "signal", sessionId, branchId: encoded.branchId, id: encoded.id, kind: encoded.kind, createdAt: encoded.createdAt, payload: encoded.payload };
  });
}
