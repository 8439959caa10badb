import { trace, type Tracer } from "@opentelemetry/api";
import type { EncodedSignal } from "../session/pipeline/encodedSignal.js";
import type { SignalSink } from "../session/pipeline/sink.js";
import { forceFlushGlobalProvider } from "./providerFlush.js";
import { SessionTrace, type TraceOptions } from "./sessionTrace.js";
import { checkSinkOptions } from "./sinkOptions.js";

/** The instrumentation scope spans are created under. */
export const TRACER_NAME = "@hooklens/runtime";

export interface OpenTelemetrySinkOptions {
  /** Where spans are created; default: a tracer of the global tracer provider. */
  tracer?: Tracer;
  /**
   * Export argument, result and message contents, redacted by the runtime's shared rules
   * (`configureRedaction` extends them). Default false: contents stay out of traces.
   */
  captureContent?: boolean;
  /** One span event per batch of stream chunks of a model call. Default false. */
  streamChunkEvents?: boolean;
  /**
   * One child span of a streamed model call per stream handler run (per chunk a registered
   * handler processed), with its chunk type, status and error. Default true; turn it off to keep
   * long streams to one span.
   */
  streamHandlerSpans?: boolean;
}

/**
 * A SignalSink that turns flushed signal batches into OpenTelemetry spans, one trace per session.
 * It works on the flushed batches, after `emit` returned: nothing here runs on the hot path. It
 * reads the signals' own fields and redacts only the strings it exports, so when it is the only
 * sink nothing is JSON-encoded (contents, with `captureContent`, are read from the encoded
 * payload). The spans are handed to whatever SDK the tracer belongs to; exporting them is that
 * SDK's job.
 */
export class OpenTelemetrySink implements SignalSink {
  /** Spans are built from the signals' own fields: the pipeline need not encode payloads for this sink. */
  readonly needsPayload = false;
  readonly #tracer: Tracer;
  readonly #options: TraceOptions;
  readonly #traces = new Map<string, SessionTrace>();
  /** Spans go to the global provider, which this sink may ask to export them. */
  readonly #global: boolean;
  /** With no tracer of its own it sends to the global provider, as HOOKLENS_OTEL does: an observer then uses this sink alone. */
  readonly replacesOtelEnvironment: boolean;

  constructor(options: OpenTelemetrySinkOptions = {}) {
    checkSinkOptions(options, "new OpenTelemetrySink(options)");
    this.#global = options.tracer === undefined;
    this.replacesOtelEnvironment = this.#global;
    this.#tracer = options.tracer ?? trace.getTracer(TRACER_NAME);
    this.#options = {
      captureContent: options.captureContent === true,
      streamChunkEvents: options.streamChunkEvents === true,
      streamHandlerSpans: options.streamHandlerSpans !== false,
    };
  }

  write(sessionId: string, batch: readonly EncodedSignal[]): void {
    let session = this.#traces.get(sessionId);
    if (session === undefined) {
      session = new SessionTrace(this.#tracer, sessionId, this.#options);
      this.#traces.set(sessionId, session);
    }
    for (const signal of batch) {
      try {
        session.apply(signal);
      } catch {
        // One odd signal must not cost the rest of the batch its spans (a tracer that throws is the SDK's bug).
      }
      if (session.ended) {
        // session.end closed the trace: send it now rather than at the program's end.
        this.#traces.delete(sessionId);
        session = new SessionTrace(this.#tracer, sessionId, this.#options);
        this.#traces.set(sessionId, session);
        void this.exportSpans();
      }
    }
  }

  /** Spans open across every session (roots included). */
  get openSpans(): number {
    let open = 0;
    for (const session of this.#traces.values()) open += session.openSpans;
    return open;
  }

  /**
   * Asks the SDK to export the spans it holds: the global provider's `forceFlush` when spans go
   * there; with a tracer of your own, its provider's `forceFlush` or `shutdown` is yours to call.
   */
  exportSpans(): Promise<void> {
    return this.#global ? forceFlushGlobalProvider() : Promise.resolve();
  }

  /** Spans end when their calls do; the SDK's own processor decides when they leave the process. */
  flush(): Promise<void> {
    return Promise.resolve();
  }

  /** Ends every open span (calls that never finished are marked unfinished) and forgets the sessions. */
  end(sessionId?: string): void {
    for (const [id, session] of this.#traces) {
      if (sessionId !== undefined && id !== sessionId) continue;
      session.end();
      this.#traces.delete(id);
    }
  }
}
