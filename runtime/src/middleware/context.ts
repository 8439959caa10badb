import { optionsObject, requireFunction, requireInstance, requireMethod, requireName, requireString } from "../shared/arguments.js";
import { RunEvent } from "../signals/callSignals.js";
import { recordTo, type SignalRecorder } from "../signals/signalRecorder.js";
import type { Ledger } from "./ledger.js";
import { newId } from "../shared/ids.js";

export type { SignalRecorder } from "../signals/signalRecorder.js";

/** Receives the events hooks emit (for example `budget.warning`). */
export type RunEventListener = (event: string, payload: Readonly<Record<string, unknown>>) => void;

/** What every invocation knows about the run it belongs to. */
export interface RunContext {
  readonly runId: string;
  /** The conversation; empty when the caller has none (thread-scoped budgets then fall back to the run). */
  readonly threadId: string;
  /** Where model spend is recorded and read; null when nobody tracks spend. */
  readonly ledger: Ledger | null;
  /** Cancels waits (rate limits) and calls; its abort is control flow, never logged as a hook bug. */
  readonly signal: AbortSignal | undefined;
  /** Publishes a run event to the listener the context was created with (and records it as a `RunEvent` signal when `signals` is set). */
  emit(event: string, payload: Readonly<Record<string, unknown>>): void;
  /**
   * Where the run's calls are recorded as signals (tool and model calls, run events, and calls a
   * hook denied as `HookShortCircuit` or `GuardrailBlock`); null or absent: not recorded.
   */
  readonly signals?: SignalRecorder | null;
}

export interface RunContextOptions {
  runId?: string;
  threadId?: string;
  ledger?: Ledger | null;
  signal?: AbortSignal;
  onEvent?: RunEventListener;
  /** Records the run's calls, run events and denied calls as signals (a SessionObserver, Session or Branch). */
  signals?: SignalRecorder | null;
}

/** A run context; the run id defaults to a fresh UUID and the thread id to "". */
export function createRunContext(options: RunContextOptions = {}): RunContext {
  checkOptions(options);
  const listener = options.onEvent;
  const runId = options.runId ?? newId();
  const threadId = options.threadId ?? "";
  const signals = options.signals ?? null;
  // A method reading `this`, so a copy of the context given another recorder (the Executor binds
  // its own to contexts that have none) records there.
  function emit(this: RunContext | undefined, event: string, payload: Readonly<Record<string, unknown>>): void {
    const recorder = this?.signals ?? signals;
    if (recorder) recordTo(recorder, new RunEvent({ event, runId: this?.runId ?? runId, threadId: this?.threadId ?? threadId, payload }));
    if (listener) listener(event, payload);
  }
  return { runId, threadId, ledger: options.ledger ?? null, signal: options.signal, emit, signals };
}

/** Once per run: each option a JavaScript caller may get wrong fails here rather than mid-run. */
function checkOptions(options: RunContextOptions): void {
  const where = "createRunContext(options)";
  optionsObject(options, where);
  if (options.runId !== undefined) requireName(options.runId, where, "options.runId");
  if (options.threadId !== undefined) requireString(options.threadId, where, "options.threadId");
  if (options.ledger != null) requireMethod(options.ledger, where, "options.ledger (a Ledger)", "record");
  if (options.signal !== undefined) requireInstance(options.signal, AbortSignal, "an AbortSignal", where, "options.signal");
  if (options.onEvent !== undefined) requireFunction(options.onEvent, where, "options.onEvent");
  if (options.signals != null) requireMethod(options.signals, where, "options.signals (a Session, Branch or SessionObserver)", "emit");
}
