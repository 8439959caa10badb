import * as vscode from "vscode";

/** The Signals view in HookLens's own activity-bar container. */
export const SIGNALS_VIEW = "hooklens.signals";
/** The same view in Run and Debug, shown while `hooklens.signals.showInRunAndDebug` is true. */
export const SIGNALS_IN_DEBUG_VIEW = "hooklens.signalsInDebug";

/**
 * Brings the Signals view forward: in Run and Debug when it is shown there (a debugging user
 * stays where they are), otherwise in HookLens's own container.
 */
export function revealSignalsView(): Thenable<unknown> {
  const inDebug = vscode.workspace.getConfiguration("hooklens.signals").get<boolean>("showInRunAndDebug", true);
  return vscode.commands.executeCommand(`${inDebug ? SIGNALS_IN_DEBUG_VIEW : SIGNALS_VIEW}.focus`);
}
