import * as vscode from "vscode";
import type { SignalStore } from "../signals/signalStore.js";

/**
 * Shows the Signals view when the first signal of a debug session arrives, once per debug
 * session, unless `hooklens.signals.revealOnDebug` is false. A run counts as the debug
 * session's when it connected after the session started.
 */
export class DebugReveal implements vscode.Disposable {
  /** Debug sessions still waiting for their first signal → the runs that existed when each started. */
  readonly #waiting = new Map<string, Set<number>>();
  readonly #disposables: vscode.Disposable[] = [];
  readonly #unsubscribe: () => void;
  /** How many times the view was brought forward (read by the e2e suite). */
  reveals = 0;

  constructor(
    private readonly store: SignalStore,
    private readonly reveal: () => Thenable<unknown>,
  ) {
    this.#disposables.push(
      vscode.debug.onDidStartDebugSession((session) => {
        if (!vscode.workspace.getConfiguration("hooklens.signals").get<boolean>("revealOnDebug", true)) return;
        this.#waiting.set(session.id, new Set(store.runs().map((run) => run.connectionId)));
      }),
      vscode.debug.onDidTerminateDebugSession((session) => this.#waiting.delete(session.id)),
    );
    this.#unsubscribe = store.onDidChange(() => this.#check());
  }

  dispose(): void {
    this.#unsubscribe();
    for (const disposable of this.#disposables.splice(0)) disposable.dispose();
  }

  #check(): void {
    if (this.#waiting.size === 0) return;
    const runs = this.store.runs().filter((run) => run.recordedFrom === null && [...run.sessions.values()].some((session) => session.signals.length > 0));
    let arrived = false;
    for (const [id, before] of this.#waiting) {
      if (!runs.some((run) => !before.has(run.connectionId))) continue;
      this.#waiting.delete(id);
      arrived = true;
    }
    if (!arrived) return;
    this.reveals++;
    void this.reveal();
  }
}
