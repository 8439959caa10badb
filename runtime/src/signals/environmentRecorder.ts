import { liveSink } from "../live/publisher.js";
import { otelEnvironmentSink } from "../session/pipeline/environmentOtel.js";
import { recordSignal } from "../session/pipeline/signalPipeline.js";
import type { SinkTarget } from "../session/pipeline/sink.js";
import { asSignal } from "../session/signal.js";
import type { SignalRecorder } from "./signalRecorder.js";

/**
 * Marks the recorder `HOOKLENS_OTEL` gives a bare IModel or Executor, so `exportToOpenTelemetry`
 * can tell it from a recorder of the program's own and give the target an observer instead.
 */
export const OTEL_ENVIRONMENT_RECORDER: unique symbol = Symbol("hooklens.otelEnvironmentRecorder");

/**
 * The recorder a bare IModel or Executor (one given no `signals`) gets when the process exports
 * to OpenTelemetry (`HOOKLENS_OTEL`): it queues the calls' signals for that export under the
 * owner's id, with no Session and no observer. Otherwise there is none, and calls cost no signals.
 */
export function environmentRecorder(sessionId: string): SignalRecorder | null {
  const sink = otelEnvironmentSink();
  return sink ? new PipelineRecorder([{ sink, sessionId }]) : null;
}

class PipelineRecorder implements SignalRecorder {
  readonly [OTEL_ENVIRONMENT_RECORDER] = true;

  constructor(readonly targets: readonly SinkTarget[]) {}

  emit(event: unknown): void {
    recordSignal(asSignal(event), this.targets);
  }
}

/**
 * The recorder a bridge to another SDK gets when the program gave it none: the signals go to the
 * editor (`HOOKLENS_LIVE`) and to OpenTelemetry (`HOOKLENS_OTEL`) under `sessionId`, with no
 * Session. Null when neither is on, so an unobserved program pays for no signals.
 */
export function processRecorder(sessionId: string): SignalRecorder | null {
  const targets: SinkTarget[] = [];
  const live = liveSink();
  if (live) targets.push({ sink: live, sessionId });
  const otel = otelEnvironmentSink();
  if (otel) targets.push({ sink: otel, sessionId });
  return targets.length > 0 ? new ProcessRecorder(targets) : null;
}

class ProcessRecorder implements SignalRecorder {
  constructor(readonly targets: readonly SinkTarget[]) {}

  emit(event: unknown): void {
    recordSignal(asSignal(event), this.targets);
  }
}
