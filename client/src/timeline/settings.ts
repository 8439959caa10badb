import * as vscode from "vscode";

/** The `hooklens.signals.timeline.*` settings (declared with their defaults in package.json). */
export interface TimelineSettings {
  /** Most bars sent to the webview; beyond it the newest calls are shown. */
  maxBars: number;
}

export const DEFAULT_TIMELINE_SETTINGS: Readonly<TimelineSettings> = { maxBars: 5_000 };

export function timelineSettings(): TimelineSettings {
  const config = vscode.workspace.getConfiguration("hooklens.signals.timeline");
  const maxBars = config.get<number>("maxBars", DEFAULT_TIMELINE_SETTINGS.maxBars);
  return { maxBars: Number.isInteger(maxBars) && maxBars >= 10 ? maxBars : DEFAULT_TIMELINE_SETTINGS.maxBars };
}
