import { performance } from "node:perf_hooks";

/**
 * Wall-clock time read from the monotonic clock, so that one `performance.now()` reading can
 * serve both as a duration boundary and as a creation time. Reading a clock costs 60–90 ns on
 * the machines we measure on (a system call), which is most of what a no-op hook costs; sharing
 * readings between adjacent moments is how the service scope keeps its overhead down.
 *
 * The anchor starts at `performance.timeOrigin` (microsecond precision, as Python's
 * `datetime.now().timestamp()` has) and is checked against `Date.now()` at most once a second:
 * it moves only when the wall clock was really adjusted (by more than Date.now's millisecond
 * resolution), so timestamps stay smooth in between.
 */
let offsetMs = startingOffset();
let checkedAtMs = performance.now();

/**
 * `performance.timeOrigin` is when the process started: if the wall clock has been adjusted
 * since (an NTP slew on a long-lived process that loads the runtime late), it is off by that
 * much. It is kept when `Date.now()` agrees with it to the millisecond; otherwise the anchor is
 * the middle of Date.now()'s millisecond, within half a millisecond of the wall clock.
 */
function startingOffset(): number {
  const monotonic = performance.now();
  const wall = Date.now();
  const estimate = performance.timeOrigin + monotonic;
  return estimate >= wall && estimate < wall + 1 ? performance.timeOrigin : wall + 0.5 - monotonic;
}

/** Milliseconds between checks of the anchor against the wall clock. */
const CHECK_EVERY_MS = 1000;
/** A wall-clock step smaller than this is Date.now()'s own rounding, not an adjustment. */
const ADJUSTMENT_MS = 1.5;

/** POSIX seconds (a float) at a `performance.now()` reading taken in this process. */
export function epochSecondsAt(monotonicMs: number): number {
  if (monotonicMs - checkedAtMs > CHECK_EVERY_MS) reanchor();
  return (offsetMs + monotonicMs) / 1000;
}

/** POSIX seconds now. */
export function epochSeconds(): number {
  return epochSecondsAt(performance.now());
}

function reanchor(): void {
  const monotonic = performance.now();
  const drift = Date.now() - (offsetMs + monotonic);
  if (Math.abs(drift) > ADJUSTMENT_MS) offsetMs += drift;
  checkedAtMs = monotonic;
}
