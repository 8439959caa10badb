/** Number formats shared by labels, descriptions and documents (fixed locale, so tests read the same text). */
const GROUPED = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/**
 * `12 ms`, `0.06 ms`, `1,204 ms`: milliseconds people can compare at a glance. The one way a
 * duration is written: the tree, the timeline (bars and axis) and signal documents all use it.
 */
export function formatDuration(ms: number): string {
  if (ms >= 10) return `${GROUPED.format(Math.round(ms))} ms`;
  if (ms >= 1) return `${ms.toFixed(1).replace(/\.0$/, "")} ms`;
  return `${Number(ms.toPrecision(2))} ms`;
}

/** A duration for a label: empty when the signal reports none. */
export function durationText(ms: number | null): string {
  return ms === null ? "" : formatDuration(ms);
}

/** An offset from the start of a session: `+0 ms`, `+1,204 ms`. */
export function formatOffset(ms: number): string {
  return `+${GROUPED.format(Math.max(0, Math.round(ms)))} ms`;
}

export function formatCount(count: number, singular: string, plural = `${singular}s`): string {
  return `${GROUPED.format(count)} ${count === 1 ? singular : plural}`;
}

/** POSIX seconds as an ISO-8601 instant; the input unchanged when it is not a usable time. */
export function isoTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? String(seconds) : date.toISOString();
}

/** The parts that say something, joined: `joinParts(["12 ms", "", "1 error"])` → `12 ms · 1 error`. */
export function joinParts(parts: ReadonlyArray<string | null | undefined | false>, separator = " · "): string {
  return parts.filter(Boolean).join(separator);
}
