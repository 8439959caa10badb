import { InvalidValueError } from "../../shared/errors.js";

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
  /** Recent signals a new SessionObserver keeps in memory (older ones are still streamed and persisted). */
  keepRecentSignals: number;
}

export const DEFAULT_SIGNAL_SETTINGS: Readonly<SignalSettings> = Object.freeze({
  maxPendingBytes: 64 * 1024 * 1024,
  batchSize: 1_000,
  keepRecentSignals: 10_000,
});

const current: SignalSettings = { ...DEFAULT_SIGNAL_SETTINGS };

/** The settings in force (a copy). */
export function signalSettings(): Readonly<SignalSettings> {
  return current;
}

/** Changes some settings for the whole process; returns the previous ones. Each must be a positive integer. */
export function configureSignals(changes: Partial<SignalSettings>): SignalSettings {
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
