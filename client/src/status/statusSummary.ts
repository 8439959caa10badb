import type { SignalStore } from "../signals/signalStore.js";

/** What the status-bar item says: live connections and signals held, in words a person reads. */
export interface StatusSummary {
  text: string;
  tooltip: string;
  live: number;
  signals: number;
}

/** Pure, so it is tested without VS Code. `$(…)` are codicons the status bar draws. */
export function statusSummary(store: SignalStore): StatusSummary {
  const runs = store.runs();
  const live = runs.filter((run) => run.connected).length;
  const signals = store.signalCount();
  const icon = live > 0 ? "$(broadcast)" : "$(pulse)";
  const count = `${signals.toLocaleString("en-US")} signal${signals === 1 ? "" : "s"}`;
  const text = live > 0 ? `${icon} HookLens ${live} live · ${count}` : `${icon} HookLens ${count}`;
  const tooltip = [
    live === 0 ? "No program is streaming signals." : `${live} program${live === 1 ? " is" : "s are"} streaming signals.`,
    `${count} held from ${runs.length} run${runs.length === 1 ? "" : "s"}.`,
    "Click to show the HookLens Signals view.",
  ].join("\n");
  return { text, tooltip, live, signals };
}
