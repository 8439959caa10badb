import * as vscode from "vscode";
import type { SignalFrame } from "@hooklens/runtime/live";
import type { LiveRun } from "../signals/signalStore.js";
import { SHOW_SIGNAL_COMMAND } from "../signals/signalTree.js";

/**
 * Opens a signal the way the Signals view does (its "Show Signal" command), so the timeline
 * and the tree open the same document for the same signal.
 */
export function openSignalLikeTheTree(signal: SignalFrame, _run: LiveRun): Thenable<unknown> {
  return vscode.commands.executeCommand(SHOW_SIGNAL_COMMAND, signal);
}
