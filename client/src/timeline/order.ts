/** What the order of bars depends on; shared by the layout and the webview (which re-sorts after updates). */
export interface Orderable {
  kind: "session" | "run" | "tool" | "model";
  sessionId: string;
  startMs: number;
}

/**
 * Bars as a tree reads: each session (by its start) followed by its branch runs and calls in
 * start order; a run sorts before a call that starts with it.
 */
export function compareBars(sessionStart: ReadonlyMap<string, number>): (a: Orderable, b: Orderable) => number {
  const startOfSession = (bar: Orderable): number => sessionStart.get(bar.sessionId) ?? bar.startMs;
  return (a, b) =>
    startOfSession(a) - startOfSession(b) ||
    (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0) ||
    kindRank(a) - kindRank(b) ||
    a.startMs - b.startMs;
}

function kindRank(bar: Orderable): number {
  return bar.kind === "session" ? 0 : bar.kind === "run" ? 1 : 2;
}
