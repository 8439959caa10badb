import { otelEnvironmentSink } from "../session/pipeline/environmentOtel.js";
import { recordSignal } from "../session/pipeline/signalPipeline.js";
import type { SinkTarget } from "../session/pipeline/sink.js";
import { asSignal } from "../session/signal.js";
import type { SignalRecorder } from "./signalRecorder.js";

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
  constructor(readonly targets: readonly SinkTarget[]) {}

  emit(event: unknown): void {
    recordSignal(asSignal(event), this.targets);
  }
}
