import { randomUUID } from "node:crypto";
import { Executor } from "../middleware/executor/executor.js";
import { IModel } from "../service/iModel.js";
import { Branch } from "../session/branch.js";
import { SessionObserver } from "../session/observer.js";
import { flushSignals } from "../session/pipeline/signalPipeline.js";
import { Session } from "../session/session.js";
import { InvalidValueError } from "../shared/errors.js";
import { OTEL_ENVIRONMENT_RECORDER } from "../signals/environmentRecorder.js";
import { exportAtProgramEnd } from "./programEnd.js";
import { OpenTelemetrySink, type OpenTelemetrySinkOptions } from "./openTelemetrySink.js";
import { checkSinkOptions, shown } from "./sinkOptions.js";

/** What can be exported: a Session (or its observer or a branch), or a bare IModel or Executor. */
export type ExportTarget = Session | SessionObserver | Branch | IModel | Executor;

export type ExportOptions = OpenTelemetrySinkOptions;

/** A running export: its sink, and `end()` to close the trace. */
export interface OpenTelemetryExport {
  readonly sink: OpenTelemetrySink;
  /** The observer whose signals are exported (the one made for a bare IModel or Executor included). */
  readonly observer: SessionObserver;
  /**
   * Flushes pending signals, ends the session's open spans (the root span included), stops
   * exporting and, when spans go to the global tracer provider, asks it to export what it holds.
   */
  end(): Promise<void>;
}

/**
 * Exports what `target` records as OpenTelemetry spans: the session's signals, or, for a bare
 * IModel or Executor, the signals of its calls (it is given an observer of its own when it has
 * none). Spans go to `options.tracer`, by default to the global tracer provider, so a program that
 * set up an OpenTelemetry SDK needs nothing else. The root span ends with `session.end` on the
 * session's bus, with `end()`, or when the program ends (see {@link exportAtProgramEnd}).
 */
export function exportToOpenTelemetry(target: ExportTarget, options: ExportOptions = {}): OpenTelemetryExport {
  checkSinkOptions(options, "exportToOpenTelemetry(target, options)");
  const observer = observerOf(target);
  const sink = new OpenTelemetrySink(options);
  const remove = observer.addSink(sink);
  const unwatch = exportAtProgramEnd(sink);
  let ending: Promise<void> | null = null;
  const end = (): Promise<void> => {
    ending ??= (async () => {
      unwatch();
      await flushSignals();
      sink.end();
      remove();
      await sink.exportSpans();
    })();
    return ending;
  };
  return { sink, observer, end };
}

function observerOf(target: ExportTarget): SessionObserver {
  if (target instanceof Session) return target.observer;
  if (target instanceof SessionObserver) return target;
  if (target instanceof Branch) {
    if (target.observer) return target.observer;
    throw new InvalidValueError("exportToOpenTelemetry(branch): the branch belongs to no Session; export the Session, or include the branch in one first");
  }
  if (target instanceof IModel || target instanceof Executor) {
    const recorder = target.signals;
    if (recorder instanceof SessionObserver) return recorder;
    if (recorder instanceof Session) return recorder.observer;
    if (recorder instanceof Branch && recorder.observer) return recorder.observer;
    // HOOKLENS_OTEL's recorder gives way to the observer made below (which HOOKLENS_OTEL also
    // exports, unless this export goes to the same global provider: then it is traced once).
    if (recorder !== null && !isEnvironmentRecorder(recorder)) throw new InvalidValueError("exportToOpenTelemetry(target): the target's `signals` is neither a Session, a Branch in a Session nor a SessionObserver, so its signals cannot be exported from here");
    const observer = new SessionObserver({ sessionId: target instanceof IModel ? target.id : randomUUID() });
    target.signals = observer;
    return observer;
  }
  throw new InvalidValueError(`exportToOpenTelemetry(target): target must be a Session, SessionObserver, Branch, IModel or Executor, got ${shown(target)}`);
}

function isEnvironmentRecorder(recorder: object): boolean {
  return (recorder as { [OTEL_ENVIRONMENT_RECORDER]?: unknown })[OTEL_ENVIRONMENT_RECORDER] === true;
}
