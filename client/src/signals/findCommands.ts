import { isAbsolute } from "node:path";
import * as vscode from "vscode";
import { CallGroup, type SignalEntry } from "./model/callGroup.js";
import { SIGNAL_SCHEME, frameJson, parseSignalQuery } from "./model/signalDocument.js";
import { formatFilter, type SignalFilter } from "./model/signalFilter.js";
import { kindStyle } from "./model/signalKinds.js";
import type { SourceLocation } from "./model/signalFacts.js";
import type { TreeNode } from "./model/treeModel.js";
import { signalAt } from "./signalLookup.js";
import type { SignalStore } from "./signalStore.js";
import type { SignalsView } from "./signalsView.js";
import { isTreeNode } from "./treeNodeArgument.js";

type Facet = "kinds" | "tools" | "branches";

/** Finding things: the filter box, filters by kind/tool/branch, problems only, copy as JSON, reveal source. */
export function registerFindCommands(view: SignalsView): vscode.Disposable {
  const commands = [
    vscode.commands.registerCommand("hooklens.signals.filter", (text?: unknown) => filterByText(view, text)),
    vscode.commands.registerCommand("hooklens.signals.filterByKind", (values?: unknown) => filterByFacet(view, "kinds", values)),
    vscode.commands.registerCommand("hooklens.signals.filterByTool", (values?: unknown) => filterByFacet(view, "tools", values)),
    vscode.commands.registerCommand("hooklens.signals.filterByBranch", (values?: unknown) => filterByFacet(view, "branches", values)),
    vscode.commands.registerCommand("hooklens.signals.clearFilter", () => view.clearFilter()),
    vscode.commands.registerCommand("hooklens.signals.showProblemsOnly", () => view.setProblemsOnly(true)),
    vscode.commands.registerCommand("hooklens.signals.showAllSignals", () => view.setProblemsOnly(false)),
    vscode.commands.registerCommand("hooklens.signals.copyJson", (node?: unknown) => copyJson(view, node)),
    vscode.commands.registerCommand("hooklens.signals.revealSource", (node?: unknown) => revealSource(view, node)),
    trackDocumentSource(view.store),
  ];
  return vscode.Disposable.from(...commands);
}

/** Asks for the filter line (or takes it as the argument); resolves with the filter now in force. */
async function filterByText(view: SignalsView, text: unknown): Promise<SignalFilter> {
  const value =
    typeof text === "string"
      ? text
      : await vscode.window.showInputBox({
          title: "Filter Signals",
          value: formatFilter(view.filter),
          prompt: "Words to find, and any of kind:<kind> tool:<name> branch:<id prefix> is:problem",
          placeHolder: "refund kind:tool.error is:problem",
        });
  if (value !== undefined) view.setFilterText(value);
  return view.filter;
}

async function filterByFacet(view: SignalsView, facet: Facet, values: unknown): Promise<SignalFilter> {
  let chosen: string[] | undefined;
  if (Array.isArray(values) && values.every((value) => typeof value === "string")) chosen = values;
  else {
    const present = facetValues(view.store, facet);
    if (present.length === 0) {
      void vscode.window.showInformationMessage(`HookLens: no ${facet} to filter by yet.`);
      return view.filter;
    }
    const current = view.filter[facet];
    const picked = await vscode.window.showQuickPick(
      present.map(({ value, count }) => ({
        label: value,
        description: `${facet === "kinds" ? `${kindStyle(value).name} · ` : ""}${count.toLocaleString("en-US")} signals`,
        picked: current.has(value),
      })),
      { title: `Show Signals with ${facet === "kinds" ? "Kind" : facet === "tools" ? "Tool" : "Branch"}…`, canPickMany: true },
    );
    chosen = picked?.map((item) => item.label);
  }
  if (chosen !== undefined) view.setFilter({ ...view.filter, [facet]: new Set(facet === "branches" ? chosen.map((id) => id.toLowerCase()) : chosen) });
  return view.filter;
}

/** The kinds, tools or branches present in the view, with how many signals each has. */
export function facetValues(store: SignalStore, facet: Facet): Array<{ value: string; count: number }> {
  const counts = new Map<string, number>();
  for (const run of store.runs()) {
    for (const session of run.sessions.values()) {
      for (const { facts } of session.model.entries) {
        const value = facet === "kinds" ? facts.kindKey : facet === "tools" ? facts.toolName : facts.branchId;
        if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
      }
    }
  }
  return [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => a.value.localeCompare(b.value));
}

/** Copies a signal's frame, or a call's frames as an array, as JSON; resolves with the text copied. */
async function copyJson(view: SignalsView, node: unknown): Promise<string | undefined> {
  const target = isTreeNode(node) ? node : view.selection;
  if (!target) return undefined;
  const frames = framesOf(target);
  if (frames.length === 0) return undefined;
  const text = frames.length === 1 && target.type !== "call" ? frameJson(frames[0]!) : JSON.stringify(frames, null, 2);
  await vscode.env.clipboard.writeText(text);
  return text;
}

function framesOf(node: TreeNode): SignalEntry["frame"][] {
  if (node.type === "signal" || node.type === "phase") return [node.entry.frame];
  if (node.type === "call") return signalsOf(node.group).map((entry) => entry.frame);
  return [];
}

function signalsOf(group: CallGroup): SignalEntry[] {
  return [...group.members, ...group.children.flatMap(signalsOf)].sort((a, b) => a.seq - b.seq);
}

/**
 * Opens the file and line a signal (or a call's tool) names, from a tree row, the selection, or a
 * signal document's title bar. Relative paths are looked up in the workspace folders.
 */
async function revealSource(view: SignalsView, node: unknown): Promise<vscode.TextEditor | undefined> {
  const location = node instanceof vscode.Uri ? documentSource(view.store, node) : nodeSource(isTreeNode(node) ? node : view.selection);
  if (!location) {
    void vscode.window.showInformationMessage("HookLens: this signal does not say where in the source it comes from.");
    return undefined;
  }
  const uri = await locate(location);
  if (!uri) {
    void vscode.window.showWarningMessage(`HookLens: ${location.file} was not found in the workspace.`);
    return undefined;
  }
  const position = new vscode.Position(location.line - 1, location.column - 1);
  return vscode.window.showTextDocument(uri, { selection: new vscode.Range(position, position), preview: true });
}

function nodeSource(node: TreeNode | undefined): SourceLocation | null {
  if (node?.type === "phase") return node.phase.source;
  if (node?.type === "signal") return node.entry.facts.source;
  if (node?.type === "call") return node.group.source;
  return null;
}

/** The place the signal a `hooklens-signal:` document shows names, while the view holds it. */
function documentSource(store: SignalStore, uri: vscode.Uri): SourceLocation | null {
  if (uri.scheme !== SIGNAL_SCHEME) return null;
  const address = parseSignalQuery(uri.query);
  return (address && signalAt(store, address)?.entry.facts.source) ?? null;
}

/** Keeps `hooklens.signalDocumentHasSource` true while the active editor shows a signal that names a place: the title bar offers Reveal Source then. */
function trackDocumentSource(store: SignalStore): vscode.Disposable {
  const update = (editor: vscode.TextEditor | undefined): void => {
    const has = editor !== undefined && documentSource(store, editor.document.uri) !== null;
    void vscode.commands.executeCommand("setContext", "hooklens.signalDocumentHasSource", has);
  };
  update(vscode.window.activeTextEditor);
  return vscode.window.onDidChangeActiveTextEditor(update);
}

async function locate(location: SourceLocation): Promise<vscode.Uri | undefined> {
  const file = location.file.replace(/^file:\/\//, "");
  const candidates = isAbsolute(file) ? [vscode.Uri.file(file)] : (vscode.workspace.workspaceFolders ?? []).map((folder) => vscode.Uri.joinPath(folder.uri, file));
  for (const candidate of candidates) {
    try {
      await vscode.workspace.fs.stat(candidate);
      return candidate;
    } catch {
      // Not in this folder; try the next.
    }
  }
  return undefined;
}
