import { randomUUID } from "node:crypto";
import type { Ledger } from "./ledger.js";

/** Receives the events hooks emit (for example `budget.warning`). */
export type RunEventListener = (event: string, payload: Readonly<Record<string, unknown>>) => void;

/** Where denied calls are recorded as signals: a SessionObserver, a Session or a Branch. */
export interface SignalRecorder {
  emit(event: unknown): unknown;
}

/** What every invocation knows about the run it belongs to. */
export interface RunContext {
  readonly runId: string;
  /** The conversation; empty when the caller has none (thread-scoped budgets then fall back to the run). */
  readonly threadId: string;
  /** Where model spend is recorded and read; null when nobody tracks spend. */
  readonly ledger: Ledger | null;
  /** Cancels waits (rate limits) and calls; its abort is control flow, never logged as a hook bug. */
  readonly signal: AbortSignal | undefined;
  /** Publishes a run event to the listener the context was created with. */
  emit(event: string, payload: Readonly<Record<string, unknown>>): void;
  /**
   * Where a call a hook denied (a before-phase ShortCircuit, a guardrail block) is recorded as a
   * `HookShortCircuit` or `GuardrailBlock` signal; null or absent: not recorded.
   */
  readonly signals?: SignalRecorder | null;
}

export interface RunContextOptions {
  runId?: string;
  threadId?: string;
  ledger?: Ledger | null;
  signal?: AbortSignal;
  onEvent?: RunEventListener;
  /** Records denied calls as signals (a SessionObserver, Session or Branch). */
  signals?: SignalRecorder | null;
}

/** A run context; the run id defaults to a fresh UUID and the thread id to "". */
export function createRunContext(options: RunContextOptions = {}): RunContext {
  const listener = options.onEvent;
  return {
    runId: options.runId ?? randomUUID(),
    threadId: options.threadId ?? "",
    ledger: options.ledger ?? null,
    signal: options.signal,
    emit: listener ? (event, payload) => listener(event, payload) : () => {},
    signals: options.signals ?? null,
  };
}
