import type { TimelineBar, TimelineLayout, TimelineRun, ToWebview } from "./protocol.js";

/**
 * Turns successive layouts of the shown run into the messages the webview needs: the whole
 * layout when the run changes (or the webview reloads), otherwise only the bars that are new
 * or changed and the ids that went away, so a live run costs a small post per batch.
 */
export class TimelineFeed {
  /** What the webview holds: bar id → the bar's JSON as last sent. */
  readonly #sent = new Map<string, string>();
  #runId: number | null | undefined = undefined;
  /** The run list and duration as last sent, to tell an idle tick from a change. */
  #header = "";

  constructor(private readonly maxBars: number) {}

  /** Forgets what was sent: the next message is a reset (the webview reloaded). */
  invalidate(): void {
    this.#runId = undefined;
    this.#sent.clear();
    this.#header = "";
  }

  /** The message for this layout; null when nothing changed. */
  next(runs: TimelineRun[], runId: number | null, layout: TimelineLayout): ToWebview | null {
    const { bars, omitted } = this.#cap(layout.bars);
    const header = JSON.stringify([runs, layout.durationMs, omitted]);
    const headerChanged = header !== this.#header;
    this.#header = header;
    if (runId !== this.#runId) {
      this.#runId = runId;
      this.#sent.clear();
      for (const bar of bars) this.#sent.set(bar.id, JSON.stringify(bar));
      return { type: "reset", runs, runId, layout: { ...layout, bars }, omittedBars: omitted };
    }
    const upsert: TimelineBar[] = [];
    const seen = new Set<string>();
    for (const bar of bars) {
      seen.add(bar.id);
      const json = JSON.stringify(bar);
      if (this.#sent.get(bar.id) === json) continue;
      this.#sent.set(bar.id, json);
      upsert.push(bar);
    }
    const remove = [...this.#sent.keys()].filter((id) => !seen.has(id));
    for (const id of remove) this.#sent.delete(id);
    if (upsert.length === 0 && remove.length === 0 && !headerChanged) return null;
    return { type: "update", runs, durationMs: layout.durationMs, upsert, remove, omittedBars: omitted };
  }

  /** Keeps every session bar and the newest calls and runs up to {@link maxBars} in all. */
  #cap(bars: TimelineBar[]): { bars: TimelineBar[]; omitted: number } {
    if (bars.length <= this.maxBars) return { bars, omitted: 0 };
    const sessions = bars.filter((bar) => bar.kind === "session");
    const others = bars.filter((bar) => bar.kind !== "session");
    const keep = new Set([...sessions, ...others.slice(Math.max(0, others.length - Math.max(0, this.maxBars - sessions.length)))]);
    const kept = bars.filter((bar) => keep.has(bar));
    return { bars: kept, omitted: bars.length - kept.length };
  }
}
