import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";

/** A real SDK tracer whose finished spans land in memory. */
export function memoryTracing(): { exporter: InMemorySpanExporter; provider: BasicTracerProvider; spans: () => ReadableSpan[] } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, provider, spans: () => exporter.getFinishedSpans() };
}

/** The finished span called `name` (exactly one must exist). */
export function only(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name);
  if (found.length !== 1) throw new Error(`expected one span "${name}", found ${found.length}: ${spans.map((s) => s.name).join(", ")}`);
  return found[0]!;
}

/** The span's parent span id, or undefined for a root. */
export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

/** `name: [children…]` lines of the span tree, children in start order: what a trace view shows. */
export function spanTree(spans: readonly ReadableSpan[]): string[] {
  const byParent = new Map<string | undefined, ReadableSpan[]>();
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  for (const span of spans) {
    const parent = parentOf(span);
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    byParent.set(key, [...(byParent.get(key) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (key: string | undefined, depth: number): void => {
    const children = [...(byParent.get(key) ?? [])].sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
    for (const span of children) {
      lines.push(`${"  ".repeat(depth)}${span.name}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}
