import { addTraceProcessor } from "@openai/agents";
import type { SpanSignals } from "./spanSignals.js";
import type { SpanLike } from "./spanFacts.js";

/** The bridges attached now; the one processor hands every span to each. */
const attached = new Set<SpanSignals>();
let added = false;

const DONE: Promise<void> = Promise.resolve();

/**
 * The one tracing processor HookLens adds to the SDK's global trace provider, through
 * `addTraceProcessor` (never `setTraceProcessors`, which would drop the program's own processors
 * and the SDK's default export). A processor cannot be removed again, so it is added once and
 * does nothing while no bridge is attached. Each method returns at once: the SDK awaits its
 * processors one after another on every span, so a slow one would slow every run.
 */
const processor = {
  onTraceStart(): Promise<void> {
    return DONE;
  },
  onTraceEnd(trace: { readonly traceId: string }): Promise<void> {
    for (const bridge of attached) bridge.traceEnded(trace.traceId);
    return DONE;
  },
  onSpanStart(span: SpanLike): Promise<void> {
    for (const bridge of attached) guarded(() => bridge.spanStarted(span));
    return DONE;
  },
  onSpanEnd(span: SpanLike): Promise<void> {
    for (const bridge of attached) guarded(() => bridge.spanEnded(span));
    return DONE;
  },
  shutdown(): Promise<void> {
    return DONE;
  },
  forceFlush(): Promise<void> {
    return DONE;
  },
};

export function attachToTraces(bridge: SpanSignals): void {
  attached.add(bridge);
  if (added) return;
  added = true;
  addTraceProcessor(processor as unknown as Parameters<typeof addTraceProcessor>[0]);
}

export function detachFromTraces(bridge: SpanSignals): void {
  attached.delete(bridge);
}

function guarded(step: () => void): void {
  try {
    step();
  } catch {
    // A span of a shape this version of the bridge does not know: skipped, never raised into the run.
  }
}
