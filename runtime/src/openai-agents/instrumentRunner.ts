import { Session } from "../session/session.js";
import { optionsObject, requireMethod } from "../shared/arguments.js";
import type { SignalRecorder } from "../signals/signalRecorder.js";
import { listenToRunner, type RunnerLike } from "./lifecycle.js";
import { recordResult, type RunResultLike } from "./resultSignals.js";
import { SpanSignals } from "./spanSignals.js";
import { attachToTraces, detachFromTraces } from "./traceProcessor.js";

export interface InstrumentOptions {
  /** Where the signals go: a Session, Branch or SessionObserver. Default: a new Session. */
  readonly signals?: SignalRecorder;
}

/** An attached bridge. */
export interface OpenAIAgentsInstrumentation {
  /** Where the runs' signals are recorded (the Session made for them unless one was given). */
  readonly signals: SignalRecorder;
  /**
   * Records what a run reports only on its result: tool calls waiting for approval
   * (`interruptions`) and tool guardrail verdicts. Hand it each `RunResult` (or a streamed one,
   * after `completed`). Never throws.
   */
  recordResult(result: RunResultLike): void;
  /** Stops recording (the SDK's processor list keeps HookLens's processor, idle). */
  detach(): void;
}

/**
 * Attaches HookLens to the runs of `@openai/agents` through the SDK's own surfaces: one tracing
 * processor added with `addTraceProcessor` (agent runs, tool calls, handoffs, guardrails and
 * errors of every run of the process, the default runner's `run()` included) and, for a runner
 * given, a lifecycle listener for approvals. Never changes what the SDK decides.
 */
export function instrumentRunner(runner?: RunnerLike | null, options?: InstrumentOptions): OpenAIAgentsInstrumentation {
  const where = "instrumentRunner(runner, options)";
  if (runner !== undefined && runner !== null) requireMethod(runner, where, "runner", "on");
  const signals = optionsObject(options, where).signals ?? new Session();
  const spans = new SpanSignals(signals);
  attachToTraces(spans);
  const unlisten = runner ? listenToRunner(runner, spans) : null;
  let attached = true;
  return {
    signals,
    recordResult: (result) => {
      if (attached) recordResult(signals, result);
    },
    detach: () => {
      if (!attached) return;
      attached = false;
      detachFromTraces(spans);
      unlisten?.();
    },
  };
}
