/** What the order of bars depends on; shared by the layout and the webview (which re-sorts after updates). */
export interface Orderable {
  kind: "session" | "run" | "tool" | "model";
  sessionId: string;
  startMs: number;
  order: number;
}

/**
 * Bars as the tree reads: each session (by its start) followed by its branch runs and calls in
 * call order (the order their first signals arrived in, as the tree lists them; start times
 * computed from reported durations can tie or cross at millisecond resolution).
 */
export function compareBars(sessionStart: ReadonlyMap<string, number>): (a: Orderable, b: Orderable) => number {
  const startOfSession = (bar: Orderable): number => sessionStart.get(bar.sessionId) ?? bar.startMs;
  return (a, b) =>
    startOfSession(a) - startOfSession(b) ||
    (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0) ||
    kindRank(a) - kindRank(b) ||
    a.order - b.order;
}

function kindRank(bar: Orderable): number {
  return bar.kind === "session" ? 0 : bar.kind === "run" ? 1 : 2;
}
