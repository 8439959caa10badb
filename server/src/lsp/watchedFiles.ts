import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { FileChangeType, type FileEvent, type FileSystemWatcher } from "vscode-languageserver";
import type { Workspace } from "./workspace.js";

/** What the server asks the client to watch: sources an open file may import, and what steers module resolution. */
export const WATCHERS: FileSystemWatcher[] = [{ globPattern: "**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}" }, { globPattern: "**/{tsconfig.json,package.json}" }];

/**
 * Applies changes on disk (workspace/didChangeWatchedFiles) to the workspace. Files open in the
 * editor are skipped: their buffer, not the disk, is what the analysis reads. Returns whether
 * anything changed, in which case every open document must be analysed again.
 */
export function applyFileChanges(workspace: Workspace, changes: readonly FileEvent[], isOpen: (uri: string) => boolean): boolean {
  let changed = false;
  for (const change of changes) {
    if (!change.uri.startsWith("file:") || isOpen(change.uri)) continue;
    const path = fileURLToPath(change.uri);
    const name = basename(path);
    if (name === "tsconfig.json" || name === "package.json") workspace.resetProjects();
    else workspace.fileChangedOnDisk(path, change.type === FileChangeType.Deleted);
    changed = true;
  }
  return changed;
}
