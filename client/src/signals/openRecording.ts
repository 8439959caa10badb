import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import * as vscode from "vscode";
import { z } from "zod";
import { DEFAULT_SIGNAL_DB, type RecordedSession } from "@hooklens/runtime/store";
import { recordingRowText } from "./model/recordingSummary.js";
import { listRecordedSessions, readRecordedSession, summarizeRecordedSessions } from "./recordingReader.js";
import type { LiveRun, SignalStore } from "./signalStore.js";
import { isTreeNode } from "./treeNodeArgument.js";

export const OPEN_RECORDING_COMMAND = "hooklens.signals.openRecording";

/** Arguments for running the command without its pickers (keybindings, tests). */
const argsSchema = z
  .object({
    file: z.string().min(1).optional(),
    sessionId: z.string().min(1).optional(),
  })
  .strict();

/**
 * "HookLens: Open Recorded Session…": picks a signal database (the workspace's
 * `.hooklens/signals.db` when there is one; the picker offers any other) and one of its
 * sessions, and shows it in the signals view like a live run. A session a program run already
 * shows is not shown twice: picking it shows that run. Resolves with the run, or undefined when
 * the user backed out or it failed (the failure is shown as an error message naming the file);
 * rejects on arguments it cannot use (a keybinding's or another extension's mistake).
 */
export async function openRecording(store: SignalStore, rawArgs?: unknown): Promise<LiveRun | undefined> {
  // The view's title bar passes the selected row: that is no argument for this command.
  const parsed = argsSchema.safeParse(rawArgs === undefined || isTreeNode(rawArgs) ? {} : rawArgs);
  if (!parsed.success) throw new Error(`HookLens: bad arguments for Open Recorded Session: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
  let file = parsed.data.file ?? workspaceDatabase() ?? (await chooseDatabase());
  try {
    let sessionId = parsed.data.sessionId;
    while (file && sessionId === undefined) {
      const picked = await pickSession(store, file);
      if (picked === ANOTHER_DATABASE) file = await chooseDatabase();
      else if (picked === undefined) return undefined;
      else sessionId = picked;
    }
    if (!file || sessionId === undefined) return undefined;
    const live = store.liveRunWithSession(sessionId);
    if (live) {
      void vscode.commands.executeCommand("hooklens.signals.focus");
      return live;
    }
    const { frames, skipped } = await readRecordedSession(file, sessionId);
    if (frames.length === 0 && skipped === 0) {
      void vscode.window.showWarningMessage(`HookLens: no session ${sessionId} in ${file}`);
      return undefined;
    }
    const run = store.addRecordedSession(file, sessionId, frames);
    if (skipped > 0) void vscode.window.showWarningMessage(`HookLens: ${skipped} record(s) of session ${sessionId} could not be read and are not shown`);
    void vscode.commands.executeCommand("hooklens.signals.focus");
    return run;
  } catch (error) {
    void vscode.window.showErrorMessage(`HookLens: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** Where a program started in a workspace folder records by default, if such a file exists. */
function workspaceDatabase(): string | undefined {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const candidate = join(folder.uri.fsPath, DEFAULT_SIGNAL_DB);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

async function chooseDatabase(): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: "Open Signal Database",
    filters: { "Signal databases": ["db", "sqlite", "sqlite3"], "All files": ["*"] },
  });
  return picked?.[0]?.fsPath;
}

const ANOTHER_DATABASE = Symbol("another database");

interface SessionRow extends vscode.QuickPickItem {
  readonly sessionId?: string;
}

/**
 * The sessions of `file`, newest first, each filled in with its program, status, duration, tool
 * calls and errors as soon as it has been read; a first row to choose another database.
 */
async function pickSession(store: SignalStore, file: string): Promise<string | typeof ANOTHER_DATABASE | undefined> {
  const sessions = [...(await listRecordedSessions(file))].reverse();
  const rows = new Map<string, SessionRow>(sessions.map((session) => [session.sessionId, pendingRow(session)]));
  const another: SessionRow = { label: "$(folder-opened) Choose Another Database…", description: basename(file), alwaysShow: true };
  const picker = vscode.window.createQuickPick<SessionRow>();
  picker.title = "Open Recorded Session";
  picker.placeholder = sessions.length === 0 ? `No sessions are recorded in ${basename(file)} yet` : `${basename(file)}: newest first`;
  picker.matchOnDescription = true;
  picker.matchOnDetail = true;
  const separator: SessionRow = { label: file, kind: vscode.QuickPickItemKind.Separator };
  const show = (): void => {
    const active = picker.activeItems[0];
    picker.items = [another, separator, ...rows.values()];
    const keep = active?.sessionId ? rows.get(active.sessionId) : undefined;
    if (keep) picker.activeItems = [keep];
  };
  show();
  picker.busy = sessions.length > 0;
  let done = false;
  const choice = new Promise<string | typeof ANOTHER_DATABASE | undefined>((resolve) => {
    picker.onDidAccept(() => {
      const row = picker.selectedItems[0];
      resolve(row === another ? ANOTHER_DATABASE : row?.sessionId);
      picker.hide();
    });
    picker.onDidHide(() => {
      done = true;
      resolve(undefined);
    });
  });
  picker.show();
  const filling = summarizeRecordedSessions(
    file,
    sessions,
    (summary) => {
      const live = store.liveRunWithSession(summary.sessionId);
      rows.set(summary.sessionId, { ...recordingRowText(summary, live ? (live.connected ? "connected" : "ended") : null), sessionId: summary.sessionId });
      if (!done) show();
    },
    () => done,
  )
    .catch((error: unknown) => {
      if (!done) picker.placeholder = `Could not read every session: ${error instanceof Error ? error.message : String(error)}`;
    })
    .finally(() => {
      picker.busy = false;
    });
  const picked = await choice;
  picker.dispose();
  void filling;
  return picked;
}

/** A session's row until it has been read: when it started and how many signals it holds. */
function pendingRow(session: RecordedSession): SessionRow {
  return {
    label: `session ${session.sessionId.slice(0, 8)}`,
    description: "reading…",
    detail: `${new Date(session.firstTs * 1000).toLocaleString()} · ${session.signalCount.toLocaleString("en-US")} signal${session.signalCount === 1 ? "" : "s"}`,
    sessionId: session.sessionId,
  };
}
