import { InvalidValueError } from "../../shared/errors.js";
import { requireObject } from "../../shared/arguments.js";

/** Environment variable that sets the default of {@link SignalSettings.liveExitDrainMs}. */
export const LIVE_DRAIN_ENV = "HOOKLENS_LIVE_DRAIN_MS";
const DEFAULT_LIVE_EXIT_DRAIN_MS = 250;

/** A positive integer from the environment, else the 250 ms default (a bad value must not break startup). */
function drainFromEnv(raw: string | undefined): number {
  const value = raw === undefined ? NaN : Number(raw);
  return Number.isSafeInteger(value) && value >= 1 ? value : DEFAULT_LIVE_EXIT_DRAIN_MS;
}

/** Process-wide limits of the signal path. */
export interface SignalSettings {
  /**
   * Bytes of serialised signals each sink may hold while its destination is slow or away (the
   * editor not reading, another process holding the database lock, PostgreSQL down). Below it
   * nothing is dropped; past it signals are counted as dropped and the drop is reported.
   */
  maxPendingBytes: number;
  /** Signals a batch holds before it is flushed without waiting for the end of the turn. */
  batchSize: number;
  /**
   * Recent signals a new SessionObserver (and each branch log) keeps in memory; older ones are
   * still streamed and persisted. This window sets the cost of every emit: a kept signal outlives
   * V8's young-generation collections, which then copy and promote it. Measured per emit with
   * nothing bound: 1.9 µs keeping 1,000, 2.8 µs keeping 2,000, 6.0 µs keeping 10,000.
   */
  keepRecentSignals: number;
  /**
   * Recent messages each Branch keeps in memory (its conversation; older ones were already
   * streamed and persisted as `MessageAdded` signals). Read whenever a message is added.
   */
  keepRecentMessages: number;
  /**
   * Milliseconds the live stream to the editor may take to drain when the program exits; what is
   * still unsent after that is dropped, so a paused or vanished editor never keeps the program alive.
   * Defaults to the `HOOKLENS_LIVE_DRAIN_MS` environment variable, else 250.
   */
  liveExitDrainMs: number;
  /**
   * Milliseconds a flush waits for a store's own calls to settle (a SignalStore you wrote whose
   * promise never settles must not hang `flush()` forever); what has not settled by then is
   * counted as dropped and logged. Default 10,000.
   */
  storeSettleMs: number;
}

export const DEFAULT_SIGNAL_SETTINGS: Readonly<SignalSettings> = Object.freeze({
  maxPendingBytes: 64 * 1024 * 1024,
  batchSize: 1_000,
  keepRecentSignals: 1_000,
  keepRecentMessages: 10_000,
  liveExitDrainMs: drainFromEnv(process.env[LIVE_DRAIN_ENV]),
  storeSettleMs: 10_000,
});

const current: SignalSettings = { ...DEFAULT_SIGNAL_SETTINGS };

/** The settings in force (a copy). */
export function signalSettings(): Readonly<SignalSettings> {
  return current;
}

/** Changes some settings for the whole process; returns the previous ones. Each must be a positive integer. */
export function configureSignals(changes: Partial<SignalSettings>): SignalSettings {
  requireObject(changes, "configureSignals(changes)", "changes");
  const previous = { ...current };
  for (const key of Object.keys(DEFAULT_SIGNAL_SETTINGS) as Array<keyof SignalSettings>) {
    const value = changes[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new InvalidValueError(`configureSignals: ${key} must be a positive integer, got ${String(value)}`);
    }
  }
  Object.assign(current, Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)));
  return previous;
}
