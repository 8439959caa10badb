import { trace } from "@opentelemetry/api";

interface Flushable {
  forceFlush(): Promise<void>;
}

/**
 * Asks the global tracer provider to export what it holds, when it can (an SDK provider has
 * `forceFlush`; the API's proxy hands out its delegate). Its batch processor's timer does not keep
 * a program alive, so without this the last spans of a short program may never leave it.
 */
export async function forceFlushGlobalProvider(): Promise<void> {
  let provider: unknown = trace.getTracerProvider();
  const delegate = (provider as { getDelegate?: () => unknown }).getDelegate;
  if (typeof delegate === "function") provider = delegate.call(provider);
  if (provider !== null && typeof provider === "object" && typeof (provider as Partial<Flushable>).forceFlush === "function") {
    try {
      await (provider as Flushable).forceFlush();
    } catch {
      // The SDK reports its own export failures.
    }
  }
}
