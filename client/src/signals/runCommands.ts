import { createReadStream, createWriteStream } from "node:fs";
import { basename } from "node:path";
import { once } from "node:events";
import { createInterface } from "node:readline";
import * as vscode from "vscode";
import { ExportReader, exportLines } from "./model/ndjsonExport.js";
import type { LiveRun } from "./signalStore.js";
import type { SignalsView } from "./signalsView.js";
import { isTreeNode } from "./treeNodeArgument.js";

/** Per-run commands: remove a run, export it to NDJSON, open such an export. */
export function registerRunCommands(view: SignalsView): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand("hooklens.signals.removeRun", (node?: unknown) => removeRun(view, node)),
    vscode.commands.registerCommand("hooklens.signals.exportRun", (node?: unknown, options?: unknown) => exportRun(view, node, options)),
    vscode.commands.registerCommand("hooklens.signals.openExport", (options?: unknown) => openExport(view, options)),
  );
}

function runOf(view: SignalsView, node: unknown): LiveRun | undefined {
  const target = isTreeNode(node) ? node : view.selection;
  if (target && "run" in target) return target.run;
  if (target?.type === "range") return runOf(view, target.container);
  return undefined;
}

async function pickRun(view: SignalsView, node: unknown, title: string): Promise<LiveRun | undefined> {
  const run = runOf(view, node);
  if (run) return run;
  const runs = view.store.runs();
  if (runs.length <= 1) return runs[0];
  const picked = await vscode.window.showQuickPick(
    runs.map((candidate) => ({ label: candidate.title || `pid ${candidate.pid}`, description: candidate.recordedFrom ?? `pid ${candidate.pid}`, run: candidate })),
    { title },
  );
  return picked?.run;
}

async function removeRun(view: SignalsView, node: unknown): Promise<boolean> {
  const run = await pickRun(view, node, "Remove Run");
  return run ? view.store.removeRun(run.connectionId) : false;
}

function fileOption(options: unknown): string | undefined {
  const file = (options as { file?: unknown } | undefined)?.file;
  return typeof file === "string" && file !== "" ? file : undefined;
}

/** Writes a run's signals as NDJSON (line by line, so a large run never becomes one string); resolves with the file. */
async function exportRun(view: SignalsView, node: unknown, options: unknown): Promise<string | undefined> {
  const run = await pickRun(view, node, "Export Run");
  if (!run) return undefined;
  let file = fileOption(options);
  if (!file) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `${(run.title || `pid-${run.pid}`).replace(/[^\w.-]+/g, "-")}.signals.ndjson`;
    const picked = await vscode.window.showSaveDialog({
      title: "Export Run as NDJSON",
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: { "Signal exports": ["ndjson", "jsonl"] },
    });
    file = picked?.fsPath;
  }
  if (!file) return undefined;
  const out = createWriteStream(file, { encoding: "utf8" });
  try {
    for (const line of exportLines(run)) {
      if (!out.write(`${line}\n`)) await once(out, "drain");
    }
  } finally {
    out.end();
    await once(out, "close");
  }
  return file;
}

/** Opens an NDJSON export (or a captured live stream) as a run; resolves with it. */
async function openExport(view: SignalsView, options: unknown): Promise<LiveRun | undefined> {
  let file = fileOption(options);
  if (!file) {
    const picked = await vscode.window.showOpenDialog({ title: "Open Signals Export", canSelectMany: false, filters: { "Signal exports": ["ndjson", "jsonl"], "All files": ["*"] } });
    file = picked?.[0]?.fsPath;
  }
  if (!file) return undefined;
  try {
    const reader = new ExportReader();
    const lines = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
    for await (const line of lines) reader.line(line);
    const { header, sessions, skipped } = reader.result;
    if (sessions.size === 0) {
      void vscode.window.showWarningMessage(`HookLens: ${file} holds no signals${skipped ? ` (${skipped} unreadable lines)` : ""}.`);
      return undefined;
    }
    const title = header?.title ? `${header.title} (${basename(file)})` : basename(file);
    const run = view.store.addRecordedRun(file, title, sessions, header?.dropped ?? 0);
    if (skipped > 0) void vscode.window.showWarningMessage(`HookLens: ${skipped} line(s) of ${basename(file)} were not signals and are not shown.`);
    return run;
  } catch (error) {
    void vscode.window.showErrorMessage(`HookLens: could not open ${file}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}
