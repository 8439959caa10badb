import * as vscode from "vscode";
import type { SignalFrame } from "@hooklens/runtime/live";
import type { SignalStore } from "./signalStore.js";
import { SignalTreeModel, type NodeView, type TreeNode } from "./model/treeModel.js";

/** Opens a signal as a read-only document (the tree item's click action; the timeline uses it too). */
export const SHOW_SIGNAL_COMMAND = "hooklens.signals.show";

/** Coalesces refreshes: a program can emit thousands of signals a second. */
const REFRESH_DELAY_MS = 150;

/**
 * The "HookLens Signals" view: a thin adapter from {@link SignalTreeModel} (where grouping,
 * filtering, labels and paging live, tested without VS Code) to VS Code's tree API.
 */
export class SignalTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  readonly model: SignalTreeModel;
  readonly #unsubscribe: () => void;
  #timer: NodeJS.Timeout | undefined;

  constructor(readonly store: SignalStore, pageSize = 200) {
    this.model = new SignalTreeModel(store, { pageSize });
    this.#unsubscribe = store.onDidChange(() => {
      this.#timer ??= setTimeout(() => this.refresh(), REFRESH_DELAY_MS);
    });
  }

  /** Redraws the whole tree now (after a filter or mode change, or a batch of signals). */
  refresh(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#changed.fire(undefined);
  }

  getChildren(node?: TreeNode): TreeNode[] {
    return node ? this.model.children(node) : this.model.roots();
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return this.model.parent(node) ?? undefined;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return treeItem(this.model.view(node), node);
  }

  /** Tooltips are built on hover only: a redraw of a large run never pays for them. */
  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    const tooltip = this.model.tooltip(node);
    if (tooltip) item.tooltip = new vscode.MarkdownString(tooltip);
    return item;
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#unsubscribe();
    this.#changed.dispose();
  }
}

const COLLAPSIBLE = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
} as const;

function treeItem(view: NodeView, node: TreeNode): vscode.TreeItem {
  const item = new vscode.TreeItem(view.label, COLLAPSIBLE[view.collapsible]);
  item.id = view.id;
  item.description = view.description;
  item.iconPath = new vscode.ThemeIcon(view.icon, view.color ? new vscode.ThemeColor(view.color) : undefined);
  item.contextValue = view.contextValue;
  if (node.type === "signal") item.command = { command: SHOW_SIGNAL_COMMAND, title: "Show Signal", arguments: [node.entry.frame satisfies SignalFrame] };
  return item;
}
