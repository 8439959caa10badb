import * as vscode from "vscode";
import type { SignalStore } from "../signals/signalStore.js";
import { openSignalLikeTheTree } from "./openSignal.js";
import { SHOW_TIMELINE_COMMAND, TimelinePanel } from "./timelinePanel.js";

/**
 * "HookLens: Show Timeline": opens the timeline on the newest run, or on the run given as the
 * argument (a run's connection id, or a tree node holding a run, from the view's context menu).
 */
export function registerTimelineCommand(context: vscode.ExtensionContext, store: SignalStore): vscode.Disposable {
  return vscode.commands.registerCommand(SHOW_TIMELINE_COMMAND, (argument?: unknown) =>
    TimelinePanel.show(context.extensionUri, store, openSignalLikeTheTree, runIdOf(argument)),
  );
}

function runIdOf(argument: unknown): number | undefined {
  if (typeof argument === "number" && Number.isInteger(argument)) return argument;
  if (typeof argument === "object" && argument !== null) {
    const run = (argument as { run?: { connectionId?: unknown } }).run;
    if (typeof run?.connectionId === "number") return run.connectionId;
  }
  return undefined;
}
