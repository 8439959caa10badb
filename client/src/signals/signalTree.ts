import * as vscode from "vscode";
import type { SignalFrame } from "@hooklens/runtime/live";
import type { LiveRun, LiveSession, SignalStore } from "./signalStore.js";

type Node = { kind: "run"; run: LiveRun } | { kind: "session"; session: LiveSession } | { kind: "signal"; signal: SignalFrame };

/** Opens a signal's whole frame as JSON (the tree item's click action). */
export const SHOW_SIGNAL_COMMAND = "hooklens.signals.show";

/** Shows a signal frame in a read-only-by-convention untitled JSON editor. */
export async function showSignal(signal: SignalFrame): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument({ language: "json", content: JSON.stringify(signal, null, 2) + "\n" });
  return vscode.window.showTextDocument(document, { preview: true });
}

/** Coalesces refreshes: a program can emit thousands of signals a second. */
const REFRESH_DELAY_MS = 100;

/** The "HookLens Signals" view: program runs → sessions → signals. */
export class SignalTreeProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  readonly #unsubscribe: () => void;
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly store: SignalStore) {
    this.#unsubscribe = store.onDidChange(() => {
      this.#timer ??= setTimeout(() => {
        this.#timer = undefined;
        this.#changed.fire(undefined);
      }, REFRESH_DELAY_MS);
    });
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.store.runs().map((run) => ({ kind: "run", run }));
    if (node.kind === "run") return [...node.run.sessions.values()].map((session) => ({ kind: "session", session }));
    if (node.kind === "session") return node.session.signals.map((signal) => ({ kind: "signal", signal }));
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case "run": {
        const { run } = node;
        const item = new vscode.TreeItem(run.title || `pid ${run.pid}`, vscode.TreeItemCollapsibleState.Expanded);
        if (run.recordedFrom !== null) {
          item.description = "recorded";
          item.tooltip = run.recordedFrom;
          item.iconPath = new vscode.ThemeIcon("database");
          item.contextValue = "hooklens.recording";
          return item;
        }
        item.description = [`pid ${run.pid}`, run.connected ? "live" : "ended", run.dropped > 0 ? `${run.dropped} dropped` : ""].filter(Boolean).join(" · ");
        item.iconPath = new vscode.ThemeIcon(run.connected ? "debug-start" : "debug-stop");
        item.contextValue = "hooklens.run";
        return item;
      }
      case "session": {
        const { session } = node;
        const item = new vscode.TreeItem(`session ${session.sessionId.slice(0, 8)}`, vscode.TreeItemCollapsibleState.Expanded);
        item.description = `${session.signals.length + session.evicted} signals${session.evicted ? ` (${session.evicted} evicted)` : ""}`;
        item.tooltip = session.sessionId;
        item.iconPath = new vscode.ThemeIcon("symbol-namespace");
        return item;
      }
      case "signal":
        return signalItem(node.signal);
    }
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#unsubscribe();
    this.#changed.dispose();
  }
}

/** A signal's label is its hook point when it has one, else its kind. */
export function signalLabel(signal: SignalFrame): string {
  const point = signal.payload["point"];
  return typeof point === "string" ? point : signal.kind;
}

function signalItem(signal: SignalFrame): vscode.TreeItem {
  const item = new vscode.TreeItem(signalLabel(signal), vscode.TreeItemCollapsibleState.None);
  const time = new Date(signal.createdAt * 1000).toISOString().slice(11, 23);
  item.description = [signal.kind === signalLabel(signal) ? "" : signal.kind, signal.branchId ? `branch ${signal.branchId.slice(0, 8)}` : "", time]
    .filter(Boolean)
    .join(" · ");
  const tooltip = new vscode.MarkdownString();
  tooltip.appendCodeblock(JSON.stringify(signal.payload, null, 2), "json");
  item.tooltip = tooltip;
  item.iconPath = new vscode.ThemeIcon(signal.kind === "GateDenied" ? "shield" : "pulse");
  item.command = { command: SHOW_SIGNAL_COMMAND, title: "Show Signal", arguments: [signal] };
  return item;
}
