import type { EncodedSignal } from "../session/pipeline/encodedSignal.js";
import type { JsonObject } from "../session/serialize.js";
import { objectOrNull } from "../shared/arguments.js";

/** One persisted observer signal: the row `SessionObserver.bindDbPersistence` writes. */
export interface SessionSignalRecord {
  sessionId: string;
  /** The signal's stable kind, e.g. `"HookSignal"`; `"SignalsDropped"` marks where signals were lost. */
  kind: string;
  /** The signal's `opId` field when it has one, otherwise `""`. */
  opId: string;
  /** When it was persisted, POSIX seconds. */
  ts: number;
  /** The JSON-safe signal, capped at 16,384 bytes (see `sanitizeSignalPayload`). */
  payload: JsonObject;
}

/** One recorded session as a store's `listSessions()` reports it. */
export interface RecordedSession {
  sessionId: string;
  /** POSIX seconds of its first and last signal. */
  firstTs: number;
  lastTs: number;
  signalCount: number;
}

/**
 * Where observer signals are persisted. SQLite and PostgreSQL implementations plug in here. Any
 * method may throw or return a promise that rejects: the runtime counts and logs the signals it
 * carried and goes on. The runtime never closes a store it was given.
 */
export interface SignalStore {
  insertSessionSignal(record: SessionSignalRecord): void | Promise<void>;
  /** The records of one session in insertion order. */
  listSessionSignals(sessionId: string): SessionSignalRecord[] | Promise<SessionSignalRecord[]>;
  /**
   * Optional: takes a flushed batch whose payloads are already JSON text, so the store writes the
   * same bytes as every other sink. Without it each record goes through `insertSessionSignal`.
   */
  insertEncodedSignals?(sessionId: string, batch: readonly EncodedSignal[]): void | Promise<void>;
  /** Optional: resolves once every record handed over so far is written. */
  flush?(): void | Promise<void>;
}

/** A SignalStore that keeps records in memory (tests, demos, short-lived scripts). */
export class InMemorySignalStore implements SignalStore {
  readonly #records: SessionSignalRecord[] = [];

  insertSessionSignal(record: SessionSignalRecord): void {
    this.#records.push(record);
  }

  listSessionSignals(sessionId: string): SessionSignalRecord[] {
    return this.#records.filter((record) => record.sessionId === sessionId);
  }

  /** Every record, all sessions, in insertion order. */
  get records(): readonly SessionSignalRecord[] {
    return [...this.#records];
  }
}

let defaultStore: SignalStore | null = null;

/**
 * The store `bindDbPersistence(sessionId)` writes to when it is given none, looked up at each
 * write. There is none until one is set: then such a binding falls back to the embedded SQLite
 * file, when that file exists (see `embeddedDefaultSignalStore`).
 */
export function getDefaultSignalStore(): SignalStore | null {
  return defaultStore;
}

/** Sets (or, with null, clears) the default SignalStore; returns the previous one. */
export function setDefaultSignalStore(store: SignalStore | null): SignalStore | null {
  objectOrNull(store, "setDefaultSignalStore(store)", "store (a SignalStore, or null to clear)");
  const previous = defaultStore;
  defaultStore = store;
  return previous;
}
