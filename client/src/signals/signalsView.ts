import * as vscode from "vscode";
import type { SignalFrame } from "@hooklens/runtime/live";
import { SIGNAL_SCHEME } from "./model/signalDocument.js";
import { NO_FILTER, formatFilter, isFilterActive, parseFilter, withProblemsOnly, type SignalFilter } from "./model/signalFilter.js";
import type { TreeMode, TreeNode } from "./model/treeModel.js";
import { SignalDocumentProvider, openSignalDocument } from "./signalDocuments.js";
import { findFrame, type FoundSignal } from "./signalLookup.js";
import type { SignalStore } from "./signalStore.js";
import { SHOW_SIGNAL_COMMAND, SignalTreeProvider } from "./signalTree.js";
import { registerFindCommands } from "./findCommands.js";
import { registerRunCommands } from "./runCommands.js";
import { isTreeNode } from "./treeNodeArgument.js";
import { SIGNALS_IN_DEBUG_VIEW, SIGNALS_VIEW } from "../status/views.js";

export const VIEW_ID = SIGNALS_VIEW;

/** The view's settings under `hooklens.signals.*`. */
export interface SignalsViewSettings {
  pageSize: number;
  defaultView: TreeMode;
}

export function readViewSettings(): SignalsViewSettings {
  const config = vscode.workspace.getConfiguration("hooklens.signals");
  return {
    pageSize: Math.max(10, config.get<number>("pageSize", 200)),
    defaultView: config.get<string>("defaultView", "grouped") === "flat" ? "flat" : "grouped",
  };
}

/**
 * The Signals view as a whole: the tree, its read-only documents, and the commands that filter,
 * reorganise, copy, export and reveal. What the view shows is decided in `model/`; this wires it.
 */
export class SignalsView implements vscode.Disposable {
  readonly provider: SignalTreeProvider;
  /** The view in HookLens's own container. */
  readonly treeView: vscode.TreeView<TreeNode>;
  /** The same tree in Run and Debug. */
  readonly debugTreeView: vscode.TreeView<TreeNode>;
  readonly #disposables: vscode.Disposable[] = [];

  constructor(readonly store: SignalStore) {
    const settings = readViewSettings();
    this.provider = new SignalTreeProvider(store, settings.pageSize);
    this.provider.model.mode = settings.defaultView;
    this.treeView = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this.provider, showCollapseAll: true });
    this.debugTreeView = vscode.window.createTreeView(SIGNALS_IN_DEBUG_VIEW, { treeDataProvider: this.provider, showCollapseAll: true });
    this.#disposables.push(
      this.provider,
      this.treeView,
      this.debugTreeView,
      vscode.workspace.registerTextDocumentContentProvider(SIGNAL_SCHEME, new SignalDocumentProvider(store)),
      vscode.commands.registerCommand(SHOW_SIGNAL_COMMAND, (target?: unknown) => this.showSignal(target)),
      vscode.commands.registerCommand("hooklens.signals.showFlat", () => this.setMode("flat")),
      vscode.commands.registerCommand("hooklens.signals.showGrouped", () => this.setMode("grouped")),
      vscode.commands.registerCommand("hooklens.signals.collapseAll", async () => {
        // VS Code registers a view's collapse-all action once the view has been shown: a view
        // never opened (Run and Debug's, by default) has none, and has nothing expanded either.
        for (const [id, view] of [[VIEW_ID, this.treeView], [SIGNALS_IN_DEBUG_VIEW, this.debugTreeView]] as const) {
          const collapse = vscode.commands.executeCommand(`workbench.actions.treeView.${id}.collapseAll`);
          await (view.visible ? collapse : collapse.then(undefined, () => undefined));
        }
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration("hooklens.signals.pageSize")) {
          this.provider.model.settings = { pageSize: readViewSettings().pageSize };
          this.provider.refresh();
        }
      }),
      { dispose: store.onDidChange(() => this.#scheduleMessage()) },
      registerFindCommands(this),
      registerRunCommands(this),
    );
    void this.#updateContext();
  }

  get filter(): SignalFilter {
    return this.provider.model.filter;
  }

  setFilter(filter: SignalFilter): void {
    this.provider.model.filter = filter;
    this.provider.refresh();
    void this.#updateContext();
    this.#updateMessage();
  }

  setFilterText(text: string): void {
    this.setFilter(parseFilter(text));
  }

  setProblemsOnly(on: boolean): void {
    this.setFilter(withProblemsOnly(this.filter, on));
  }

  clearFilter(): void {
    this.setFilter(NO_FILTER);
  }

  setMode(mode: TreeMode): void {
    this.provider.model.mode = mode;
    this.provider.refresh();
    void this.#updateContext();
    this.#updateMessage();
  }

  /** Opens a signal (a frame, as the timeline passes it, or a tree row) as a document, and reveals its row. */
  async showSignal(target: unknown): Promise<vscode.TextEditor | undefined> {
    const found = this.#resolve(target);
    if (!found) {
      void vscode.window.showWarningMessage("HookLens: that signal is no longer in the Signals view.");
      return undefined;
    }
    const editor = await openSignalDocument(found);
    await this.reveal(found);
    return editor;
  }

  /** The tree the user sees (Run and Debug's or the container's), else the container's. */
  get activeTreeView(): vscode.TreeView<TreeNode> {
    return this.debugTreeView.visible && !this.treeView.visible ? this.debugTreeView : this.treeView;
  }

  /** The selected row of whichever tree is visible. */
  get selection(): TreeNode | undefined {
    return this.activeTreeView.selection[0];
  }

  /** Selects a signal's row in the visible tree, expanding the calls and branch that hold it (unless filtered out). */
  async reveal(found: FoundSignal): Promise<boolean> {
    const node = this.provider.model.signalNode(found.run, found.session, found.entry);
    if (!node) return false;
    const tree = this.activeTreeView;
    if (tree.selection[0]?.id === node.id) return true;
    if (!tree.visible) return false;
    await tree.reveal(node, { select: true, focus: false, expand: false });
    return true;
  }

  #resolve(target: unknown): FoundSignal | null {
    if (isTreeNode(target) && (target.type === "signal" || target.type === "phase")) return { run: target.run, session: target.session, entry: target.entry };
    if (isFrame(target)) return findFrame(this.store, target);
    return null;
  }

  #messageTimer: NodeJS.Timeout | undefined;

  #scheduleMessage(): void {
    if (!isFilterActive(this.filter)) return;
    this.#messageTimer ??= setTimeout(() => {
      this.#messageTimer = undefined;
      this.#updateMessage();
    }, 500);
  }

  #updateMessage(): void {
    const filter = this.filter;
    let message: string | undefined;
    if (isFilterActive(filter)) {
      const { shown, total } = this.provider.model.matchCounts();
      message = `Filter ${formatFilter(filter)}: ${shown.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} signals match.`;
    } else if (this.provider.model.mode === "flat") message = "Arrival order: every signal as it came, ungrouped.";
    this.treeView.message = message;
    this.debugTreeView.message = message;
  }

  async #updateContext(): Promise<void> {
    await vscode.commands.executeCommand("setContext", "hooklens.signals.filtered", isFilterActive(this.filter));
    await vscode.commands.executeCommand("setContext", "hooklens.signals.problemsOnly", this.filter.problemsOnly);
    await vscode.commands.executeCommand("setContext", "hooklens.signals.flat", this.provider.model.mode === "flat");
  }

  dispose(): void {
    clearTimeout(this.#messageTimer);
    for (const disposable of this.#disposables.splice(0)) disposable.dispose();
  }
}

function isFrame(value: unknown): value is SignalFrame {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "signal" && typeof (value as { sessionId?: unknown }).sessionId === "string";
}
