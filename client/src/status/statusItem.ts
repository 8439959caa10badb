import * as vscode from "vscode";
import type { SignalStore } from "../signals/signalStore.js";
import { statusSummary } from "./statusSummary.js";

export const FOCUS_SIGNALS_COMMAND = "hooklens.signals.focus";
/** A program can stream thousands of signals a second; the count is redrawn at most this often. */
const REFRESH_MS = 500;

/**
 * The status-bar item: live connections and signals held; a click shows the Signals view.
 * Hidden when `hooklens.signals.statusBar` is false.
 */
export class SignalStatusItem implements vscode.Disposable {
  readonly #item = vscode.window.createStatusBarItem("hooklens.status", vscode.StatusBarAlignment.Left, 10);
  readonly #unsubscribe: () => void;
  readonly #configuration: vscode.Disposable;
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly store: SignalStore) {
    this.#item.name = "HookLens Signals";
    this.#item.command = FOCUS_SIGNALS_COMMAND;
    this.#unsubscribe = store.onDidChange(() => {
      this.#timer ??= setTimeout(() => {
        this.#timer = undefined;
        this.refresh();
      }, REFRESH_MS);
    });
    this.#configuration = vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("hooklens.signals.statusBar")) this.refresh();
    });
    this.refresh();
  }

  /** What the item shows now (read by the e2e suite). */
  get text(): string {
    return this.#item.text;
  }

  refresh(): void {
    const summary = statusSummary(this.store);
    this.#item.text = summary.text;
    this.#item.tooltip = summary.tooltip;
    if (vscode.workspace.getConfiguration("hooklens.signals").get<boolean>("statusBar", true)) this.#item.show();
    else this.#item.hide();
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#unsubscribe();
    this.#configuration.dispose();
    this.#item.dispose();
  }
}
