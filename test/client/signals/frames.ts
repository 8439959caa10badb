import type { SignalFrame } from "@hooklens/runtime/live";

const T0 = 1_796_000_000;
let next = 0;

/** A signal frame as the live stream carries it; `at` is milliseconds after a fixed start. */
export function frame(kind: string, payload: Record<string, unknown>, options: { at?: number; sessionId?: string; branchId?: string | null } = {}): SignalFrame {
  next++;
  return {
    type: "signal",
    sessionId: options.sessionId ?? "session-1",
    branchId: options.branchId ?? null,
    id: `id-${next}`,
    kind,
    createdAt: T0 + (options.at ?? 0) / 1000,
    payload: { createdAt: T0 + (options.at ?? 0) / 1000, metadata: {}, schemaVersion: 1, ...payload },
  };
}

/** A HookSignal at `point` with the hook's own payload. */
export function hook(point: string, inner: Record<string, unknown>, options: { at?: number; sessionId?: string; branchId?: string | null } = {}): SignalFrame {
  return frame("HookSignal", { point, payload: inner }, options);
}

export const START_SECONDS = T0;
