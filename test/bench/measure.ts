/**
 * A small benchmark kit: every figure is a median of several timed batches, and results are
 * reported as ratios against a baseline measured in the same run, never as absolute targets.
 */
export interface Measurement {
  name: string;
  nsPerOp: number;
}

export interface Comparison {
  /** What is measured, e.g. "HookBus.emit, 5 async handlers". */
  label: string;
  subject: Measurement;
  baseline: Measurement;
  /** The ratio the issue asks for (subject / baseline must stay at or under it), if any. */
  target?: number;
}

/** Times `fn` (sync or async) and returns the median ns per call over `batches` batches. */
export async function measure(name: string, fn: () => unknown, options: { batches?: number; minBatchMs?: number } = {}): Promise<Measurement> {
  const batches = options.batches ?? 15;
  const minBatchMs = options.minBatchMs ?? 40;
  let iterations = 1;
  // Calibrate: grow the batch until it lasts minBatchMs, warming the JIT on the way.
  for (;;) {
    const ms = await timeBatch(fn, iterations);
    if (ms >= minBatchMs) break;
    iterations *= ms < minBatchMs / 8 ? 8 : 2;
  }
  const samples: number[] = [];
  for (let i = 0; i < batches; i++) samples.push(((await timeBatch(fn, iterations)) * 1e6) / iterations);
  samples.sort((a, b) => a - b);
  return { name, nsPerOp: samples[Math.floor(samples.length / 2)]! };
}

async function timeBatch(fn: () => unknown, iterations: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    const out = fn();
    if (out && typeof (out as PromiseLike<unknown>).then === "function") await out;
  }
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Formats comparisons as a table; marks a ratio over its target. */
export function report(title: string, rows: Comparison[]): string {
  const lines = [`\n${title}`];
  for (const row of rows) {
    const ratio = row.subject.nsPerOp / row.baseline.nsPerOp;
    const verdict = row.target === undefined ? "" : ratio <= row.target ? `  ok (target ≤ ${row.target}×)` : `  OVER target ≤ ${row.target}×`;
    lines.push(
      `  ${row.label.padEnd(48)} ${fmt(row.subject.nsPerOp)} vs ${row.baseline.name} ${fmt(row.baseline.nsPerOp)}  = ${ratio.toFixed(2)}×${verdict}`,
    );
  }
  return lines.join("\n");
}

function fmt(ns: number): string {
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`;
}
