import type { SignalRecorder } from "../signals/signalRecorder.js";
import { optionsObject } from "../shared/arguments.js";
import { bridgeRecorder, parentCallId } from "./callContext.js";
import { MiddlewareModelCall, type ModelRef } from "./modelCall.js";
import { observedStream } from "./observedStream.js";

export interface HookLensMiddlewareOptions {
  /**
   * Where the calls are recorded: a Session, Branch or SessionObserver (its persistence and sinks
   * apply). Default: the editor's live view when `HOOKLENS_LIVE` is set and OpenTelemetry when
   * `HOOKLENS_OTEL` is, under one session for the process; nothing at all when neither is.
   */
  readonly signals?: SignalRecorder | null;
}

/** What `wrapGenerate`/`wrapStream` are given; generic so the middleware fits v6's and v7's types. */
export interface WrapOptions<G, S> {
  readonly doGenerate: () => PromiseLike<G>;
  readonly doStream: () => PromiseLike<S>;
  readonly params: unknown;
  readonly model: ModelRef;
}

/**
 * A language model middleware of the shape both AI SDK 6 (`LanguageModelV3Middleware`) and 7
 * accept: `wrapLanguageModel({ model, middleware: hookLensMiddleware() })`.
 */
export interface HookLensMiddleware {
  readonly specificationVersion: "v3";
  wrapGenerate<G, S>(options: WrapOptions<G, S>): PromiseLike<G>;
  wrapStream<G, S>(options: WrapOptions<G, S>): PromiseLike<S>;
}

/**
 * A pass-through middleware that records every model call it wraps: its params (redacted like
 * every signal), stream parts, tool calls, finish reason, usage, latency and errors. It changes
 * nothing the model receives or returns and never throws into the SDK; with no recorder (no
 * `signals`, no live view, no OpenTelemetry) it only calls through.
 */
export function hookLensMiddleware(options?: HookLensMiddlewareOptions): HookLensMiddleware {
  const signals = bridgeRecorder(optionsObject(options, "hookLensMiddleware(options)").signals);
  if (signals === null) return { specificationVersion: "v3", wrapGenerate: ({ doGenerate }) => doGenerate(), wrapStream: ({ doStream }) => doStream() };
  // Promise chains, not async functions: one promise less per call on a path every model call takes.
  return {
    specificationVersion: "v3",
    wrapGenerate({ doGenerate, params, model }) {
      const call = new MiddlewareModelCall(signals, model, params, false, parentCallId());
      return settle(call, doGenerate, (result) => {
        call.generated(result);
        return result;
      });
    },
    wrapStream({ doStream, params, model }) {
      const call = new MiddlewareModelCall(signals, model, params, true, parentCallId());
      return settle(call, doStream, (result) => observedStream(result, call));
    },
  };
}

/** `run()`'s result through `onResult`; a failure (thrown or rejected) finishes `call` and goes on unchanged. */
function settle<T, R>(call: MiddlewareModelCall, run: () => PromiseLike<T>, onResult: (result: T) => R): PromiseLike<R> {
  const failed = (error: unknown): never => {
    call.finish(error);
    throw error;
  };
  let pending: PromiseLike<T>;
  try {
    pending = run();
  } catch (error) {
    call.finish(error);
    return Promise.reject(error);
  }
  return Promise.resolve(pending).then(onResult, failed);
}
