import { performance } from "node:perf_hooks";

/** The event loop counts as idle over a window in which it was busy less than this share of the time. */
const IDLE_BELOW = 0.2;
/** Windows to wait for an idle one before running the work anyway. */
const MOST_WINDOWS = 50;
/** The runners of work not done yet; one exit listener runs them all (a listener each would trip Node's leak warning past ten). */
const pending = new Set<() => void>();

/** How many pieces of work wait for the server to be idle (the bench waits for them to count their CPU). */
export function idleWorkPending(): number {
  return pending.size;
}

/**
 * Runs `work` once, when the event loop has been mostly idle for a whole window of `windowMs`: not
 * while the server is answering (so a reply it is writing leaves first, and a burst of keystrokes is
 * not held up), yet within `MOST_WINDOWS` windows at the latest. A process that exits before then
 * runs it at exit (`work` must then be synchronous). The timer is not unref'd: a short wait of a
 * process with nothing else to do still ends with the work done.
 */
export function whenIdle(work: () => void, windowMs: number): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    clearInterval(timer);
    pending.delete(run);
    if (pending.size === 0) process.off("exit", runPendingAtExit);
    work();
  };
  let windows = 0;
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (busy < IDLE_BELOW || ++windows >= MOST_WINDOWS) run();
  }, windowMs);
  if (pending.size === 0) process.once("exit", runPendingAtExit);
  pending.add(run);
}

function runPendingAtExit(): void {
  for (const run of [...pending]) {
    try {
      run();
    } catch {
      // one failed write must not keep the others from being done
    }
  }
}
