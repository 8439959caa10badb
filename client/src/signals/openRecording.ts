import { existsSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { z } from "zod";
import { DEFAULT_SIGNAL_DB, type RecordedSession } from "@hooklens/runtime/store";
import { listRecordedSessions, readRecordedSession } from "./recordingReader.js";
import type { LiveRun, SignalStore } from "./signalStore.js";

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
 * `.hooklens/signals.db` when there is one) and one of its sessions, and shows it in the signals
 * view like a live run. Resolves with the run, or undefined when the user backed out or it failed
 * (the failure is shown as an error message naming the file).
 */
export async function openRecording(store: SignalStore, rawArgs?: unknown): Promise<LiveRun | undefined> {
  const parsed = argsSchema.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    void vscode.window.showErrorMessage(`HookLens: bad arguments for Open Recorded Session: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
    return undefined;
  }
  const file = parsed.data.file ?? (await pickDatabase());
  if (!file) return undefined;
  try {
    const sessionId = parsed.data.sessionId ?? (await pickSession(file));
    if (!sessionId) return undefined;
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

/** The workspace's default database if it exists, else a file picker. */
async function pickDatabase(): Promise<string | undefined> {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    // Where a program started in this folder records by default.
    const candidate = join(folder.uri.fsPath, DEFAULT_SIGNAL_DB);
    if (existsSync(candidate)) return candidate;
  }
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: "Open Signal Database",
    filters: { "Signal databases": ["db", "sqlite", "sqlite3"], "All files": ["*"] },
  });
  return picked?.[0]?.fsPath;
}

async function pickSession(file: string): Promise<string | undefined> {
  const sessions = await listRecordedSessions(file);
  if (sessions.length === 0) {
    void vscode.window.showInformationMessage(`HookLens: no sessions are recorded in ${file} yet`);
    return undefined;
  }
  const items = [...sessions].reverse().map((session) => ({ ...sessionItem(session), sessionId: session.sessionId }));
  const picked = await vscode.window.showQuickPick(items, { title: "Open Recorded Session", placeHolder: "Newest first", matchOnDescription: true });
  return picked?.sessionId;
}

function sessionItem(session: RecordedSession): vscode.QuickPickItem {
  const first = new Date(session.firstTs * 1000);
  const minutes = (session.lastTs - session.firstTs) / 60;
  return {
    label: session.sessionId,
    description: `${session.signalCount} signal${session.signalCount === 1 ? "" : "s"}`,
    detail: `${first.toLocaleString()} · ${minutes < 1 ? "under a minute" : `${minutes.toFixed(0)} min`}`,
  };
}
