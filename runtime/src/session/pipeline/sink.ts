import type { EncodedSignal } from "./encodedSignal.js";

/**
 * Where flushed signals go: the live stream, a database, OpenTelemetry. A sink receives each
 * batch already serialised (unless it says it reads the signals themselves) and must not throw or
 * block on I/O it cannot finish now; it keeps its own backlog within the configured memory bound
 * and reports what it had to drop (one log line per flush at most, and a marker its readers show).
 */
export interface SignalSink {
  /** Takes one batch of one session's signals, in order. */
  write(sessionId: string, batch: readonly EncodedSignal[]): void;
  /** Resolves once everything written so far reached its destination (or was given up). */
  flush(): Promise<void>;
  /**
   * `false` when the sink reads the signal itself (`EncodedSignal.signal`) rather than its
   * encoded payload: a flush whose sinks all say so does not serialise the payload (reading
   * `payload` or `payloadJson` still works; it encodes that one signal then). Default `true`:
   * the payload is encoded in the flush, before `write`.
   */
  readonly needsPayload?: boolean;
  /**
   * `true` when the sink sends what it is given to the global OpenTelemetry tracer provider, as
   * the `HOOKLENS_OTEL` export does: an observer with such a sink leaves that export out, so one
   * session is not traced twice.
   */
  readonly replacesOtelEnvironment?: boolean;
}

/** One sink plus the session id it files signals under (a persistence binding may name its own). */
export interface SinkTarget {
  readonly sink: SignalSink;
  readonly sessionId: string;
}
