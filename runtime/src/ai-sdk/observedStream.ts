import type { MiddlewareModelCall } from "./modelCall.js";

/**
 * The stream result with its `stream` replaced by one that hands every part on unchanged, when
 * its reader asks for it, and tells `call` about it: the end, an error and a cancel by the reader
 * each finish the call. A result without a readable `stream` is returned as it is.
 *
 * One stream layer is the floor of what seeing the parts costs (a TransformStream costs about
 * twice as much per part on Node 20); `pull` returns the read's own promise rather than being
 * an async function, one promise less per part (test/bench/aiSdk.bench.ts).
 */
export function observedStream<S>(result: S, call: MiddlewareModelCall): S {
  const source = (result as { stream?: unknown } | null)?.stream;
  if (!(source instanceof ReadableStream)) {
    call.streamEnded();
    return result;
  }
  const reader = (source as ReadableStream<unknown>).getReader();
  let controller!: ReadableStreamDefaultController<unknown>;
  const passOn = (next: { done: boolean; value?: unknown }): void => {
    if (next.done) {
      call.streamEnded();
      controller.close();
      return;
    }
    controller.enqueue(next.value);
    try {
      call.part(next.value);
    } catch {
      // Recording never fails the stream.
    }
  };
  const fail = (error: unknown): void => {
    call.finish(error);
    controller.error(error);
  };
  const observed = new ReadableStream<unknown>(
    {
      start(streamController) {
        controller = streamController;
      },
      pull: () => reader.read().then(passOn, fail),
      cancel(reason) {
        call.finish(null, true);
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { ...result, stream: observed };
}
