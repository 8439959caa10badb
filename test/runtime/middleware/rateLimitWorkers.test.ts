import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { RateBuckets } from "@hooklens/runtime";

interface Booking {
  bookedAt: number;
  wait: number;
  through: number;
}

interface WorkerReport {
  bookings: Booking[];
}

// One slot every 0.5 s after the burst: a worker would have to stall for half a second between two
// bookings for a late booking to find a refilled bucket, so the burst count below is robust.
const CALLS = 2;
const PER = 1;
const PER_WORKER = 3;

function runWorker(kind: string, gate: SharedArrayBuffer): Promise<WorkerReport> {
  const worker = new Worker(new URL("./fixtures/rateLimitWorker.mjs", import.meta.url), {
    workerData: { kind, calls: CALLS, per: PER, count: PER_WORKER, gate },
  });
  return new Promise((resolve, reject) => {
    worker.once("message", (report: WorkerReport) => void worker.terminate().then(() => resolve(report)));
    worker.once("error", reject);
  });
}

async function runTwoWorkers(kind: string): Promise<WorkerReport[]> {
  const gate = new SharedArrayBuffer(8);
  const flag = new Int32Array(gate);
  const reports = Promise.all([runWorker(kind, gate), runWorker(kind, gate)]);
  // Release both workers at once, when both are ready.
  while (Atomics.load(flag, 1) < 2) await new Promise((r) => setTimeout(r, 5));
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
  return reports;
}

describe("RateLimitHook across two worker threads", () => {
  it("both workers book from one bucket: the burst of `calls` is shared, and no window holds more than the burst plus its refill", async () => {
    const bucketsBefore = RateBuckets.shared().size; // the runtime is loaded before the workers start
    const reports = await runTwoWorkers(`workers-${process.pid}`);

    // The workers claimed their bucket in this thread's table: they inherited it rather than making their own.
    expect(RateBuckets.shared().size).toBe(bucketsBefore + 1);

    const bookings = reports.flatMap((r) => r.bookings);
    expect(bookings).toHaveLength(2 * PER_WORKER);
    // One shared burst: exactly CALLS slots went through without waiting (separate buckets would give 2 × CALLS).
    expect(bookings.filter((b) => b.wait === 0)).toHaveLength(CALLS);

    const starts = bookings.map((b) => b.bookedAt + b.wait).sort((a, b) => a - b);
    const interval = PER / CALLS;
    // GCRA conformance: slots i..j (sorted) span at least (j - i + 1 - CALLS) intervals, i.e. any
    // window holds at most CALLS slots plus one per interval it lasts (so at most CALLS in any
    // window shorter than one interval).
    for (let i = 0; i < starts.length; i++) {
      for (let j = i + CALLS; j < starts.length; j++) {
        expect(starts[j]! - starts[i]!).toBeGreaterThanOrEqual((j - i + 1 - CALLS) * interval - 1e-9);
      }
    }
    // In particular, no window shorter than one interval ever holds more than CALLS slots.
    for (const start of starts) expect(starts.filter((s) => s >= start && s < start + interval - 1e-9).length).toBeLessThanOrEqual(CALLS);
    // Every call really waited for its slot (sleeping outside the lock, in its own thread).
    for (const b of bookings) expect(b.through).toBeGreaterThanOrEqual(b.bookedAt + b.wait);
  });
});
