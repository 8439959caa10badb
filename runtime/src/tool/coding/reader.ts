import { constants } from "node:fs";
import { readdir } from "node:fs/promises";
import { z } from "zod";
import { listablePath, openConfined } from "./confinedFile.js";
import { defineCodingTool, FILE_TOOL_DEADLINE_MS, type CodingToolDefinition } from "./definition.js";
import { failure, type Workspace } from "./workspace.js";
import type { FileHandle } from "node:fs/promises";
import type { ToolArgs } from "../objects.js";

const MAX_FILE_BYTES = 5 * 1024 * 1024;
const DEFAULT_LINE_LIMIT = 2_000;
const MAX_LIST_ENTRIES = 1_000;

export const ReaderRequest = z.object({
  action: z.enum(["read", "list"]).optional().describe('"read" a text file (default) or "list" a directory'),
  path: z.string().min(1).describe("Path relative to the workspace root"),
  offset: z.number().int().min(0).optional().describe("First line to return, 0-based (default 0)"),
  limit: z.number().int().min(1).max(10_000).optional().describe(`How many lines to return (default ${DEFAULT_LINE_LIMIT})`),
});

/** Reads text files and lists directories inside the workspace. */
export function readerTool(workspace: Workspace): CodingToolDefinition {
  return defineCodingTool("Read a text file or list a directory inside the workspace.", ReaderRequest, async (args) => {
    const target = workspace.resolve(args.path);
    // Checked again on the open descriptor: what is read is what was checked.
    const handle = await openConfined(workspace, target, constants.O_RDONLY);
    try {
      return await readOpened(workspace, handle, target, args);
    } finally {
      await handle.close();
    }
  }, FILE_TOOL_DEADLINE_MS);
}

async function readOpened(workspace: Workspace, handle: FileHandle, target: string, args: z.infer<typeof ReaderRequest>): Promise<ToolArgs> {
  const info = await handle.stat();
  if (args.action === "list") {
    if (!info.isDirectory()) return failure(`Not a directory: ${args.path}`);
    const listed = await readdir(await listablePath(handle, target), { withFileTypes: true });
    const entries = listed.sort((a, b) => a.name.localeCompare(b.name));
    return {
      success: true,
      path: workspace.relative(target),
      entries: entries.slice(0, MAX_LIST_ENTRIES).map((entry) => ({
        name: entry.name,
        type: entry.isDirectory() ? "dir" : entry.isFile() ? "file" : entry.isSymbolicLink() ? "symlink" : "other",
      })),
      truncated: entries.length > MAX_LIST_ENTRIES,
    };
  }
  if (info.isDirectory()) return failure(`Is a directory (use action "list"): ${args.path}`);
  if (info.size > MAX_FILE_BYTES) return failure(`File too large to read (${info.size} bytes): ${args.path}`);
  const bytes = await handle.readFile();
  if (bytes.subarray(0, 8192).includes(0)) return failure(`Binary file: ${args.path}`);
  const lines = bytes.toString("utf8").split("\n");
  const offset = args.offset ?? 0;
  const limit = args.limit ?? DEFAULT_LINE_LIMIT;
  const slice = lines.slice(offset, offset + limit);
  return {
    success: true,
    path: workspace.relative(target),
    content: slice.join("\n"),
    startLine: offset,
    totalLines: lines.length,
    truncated: offset + slice.length < lines.length,
  };
}
