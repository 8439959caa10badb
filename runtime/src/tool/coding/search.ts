import { constants, type Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { fnmatch } from "../fnmatch.js";
import { openConfined } from "./confinedFile.js";
import { BoundedMatcher, PatternTimeoutError } from "./boundedMatcher.js";
import { defineCodingTool, FILE_TOOL_DEADLINE_MS, type CodingToolDefinition } from "./definition.js";
import type { ToolArgs } from "../objects.js";
import { failure, type Workspace } from "./workspace.js";

const SKIPPED_DIRS = new Set([".git", "node_modules"]);
const MAX_FILE_BYTES = 1024 * 1024;
const MAX_FILES = 20_000;
const MAX_LINE_CHARS = 500;
const DEFAULT_MAX_RESULTS = 100;

export const SearchRequest = z.object({
  pattern: z.string().min(1).describe("A regular expression (or plain text with literal: true)"),
  path: z.string().optional().describe("File or directory to search, relative to the workspace root (default: the root)"),
  glob: z.string().optional().describe('Only files whose name matches, e.g. "*.ts"'),
  literal: z.boolean().optional().describe("Treat the pattern as plain text"),
  caseSensitive: z.boolean().optional().describe("Default true"),
  maxResults: z.number().int().min(1).max(1_000).optional().describe(`Default ${DEFAULT_MAX_RESULTS}`),
});

interface Match {
  file: string;
  line: number;
  text: string;
}

export interface SearchToolOptions {
  /** How long matching may take in one search, in ms (default 10,000); then the search fails. */
  patternTimeoutMs?: number;
}

/** Default time budget for matching one search's pattern. */
export const DEFAULT_PATTERN_TIMEOUT_MS = 10_000;

/** Finds which of a file's lines match: the indexes, in order. */
type LineTest = (lines: readonly string[]) => Promise<number[]>;

/**
 * Searches text files in the workspace line by line. Skips .git, node_modules, symlinks, binaries,
 * large files and anything not a regular file. A regular expression runs in a worker thread
 * under a time budget (see {@link BoundedMatcher}); literal text is matched in place.
 */
export function searchTool(workspace: Workspace, options: SearchToolOptions = {}): CodingToolDefinition {
  const budgetMs = options.patternTimeoutMs ?? DEFAULT_PATTERN_TIMEOUT_MS;
  return defineCodingTool(
    "Search the workspace's text files for a pattern; returns file, line number and line.",
    SearchRequest,
    async (args) => {
      const source = args.literal ? args.pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : args.pattern;
      const flags = args.caseSensitive === false ? "i" : "";
      let regex: RegExp;
      try {
        regex = new RegExp(source, flags); // compiled here only to report a syntax error; never run here unless literal
      } catch (error) {
        return failure(`Invalid pattern: ${(error as Error).message}`);
      }
      if (args.literal)
        return await searchWith(workspace, args, async (lines) => lines.flatMap((line, i) => (regex.test(line) ? [i] : [])));
      const matcher = new BoundedMatcher(source, flags, budgetMs);
      try {
        return await searchWith(workspace, args, (lines) => matcher.matchingLines(lines));
      } catch (error) {
        if (error instanceof PatternTimeoutError) return failure(error);
        throw error;
      } finally {
        matcher.close();
      }
    },
    FILE_TOOL_DEADLINE_MS,
  );
}

async function searchWith(workspace: Workspace, args: z.output<typeof SearchRequest>, test: LineTest): Promise<ToolArgs> {
  const start = workspace.resolve(args.path ?? ".");
  const limit = args.maxResults ?? DEFAULT_MAX_RESULTS;
  const matches: Match[] = [];
  let filesSearched = 0;
  let truncated = false;
  for await (const file of walk(start)) {
    if (args.glob && !fnmatch(args.glob.includes("/") ? workspace.relative(file) : path.basename(file), args.glob)) continue;
    if (++filesSearched > MAX_FILES) {
      truncated = true;
      break;
    }
    const found = await searchFile(workspace, file, test, workspace.relative(file), limit - matches.length);
    matches.push(...found.matches);
    if (found.more || matches.length >= limit) {
      truncated = true; // the limit was reached; more matches may exist
      break;
    }
  }
  return {
    success: true,
    matches,
    filesSearched: Math.min(filesSearched, MAX_FILES),
    truncated,
  };
}

async function* walk(start: string): AsyncGenerator<string> {
  const info = await stat(start);
  if (info.isFile()) {
    yield start;
    return;
  }
  const pending = [start];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => b.name.localeCompare(a.name)); // popped in name order
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) pending.push(full);
    }
    for (const entry of entries.reverse()) if (entry.isFile()) yield path.join(dir, entry.name);
  }
}

async function searchFile(
  workspace: Workspace,
  file: string,
  test: LineTest,
  relative: string,
  room: number,
): Promise<{ matches: Match[]; more: boolean }> {
  const matches: Match[] = [];
  let bytes: Buffer;
  try {
    // Opened and checked like the reader's files, so a file swapped for a link mid-walk is skipped.
    const handle = await openConfined(workspace, file, constants.O_RDONLY);
    try {
      if ((await handle.stat()).size > MAX_FILE_BYTES) return { matches, more: false };
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch {
    return { matches, more: false };
  }
  if (bytes.subarray(0, 8192).includes(0)) return { matches, more: false };
  const lines = bytes
    .toString("utf8")
    .split("\n")
    .map((line) => (line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) : line));
  for (const i of await test(lines)) {
    if (matches.length >= room) return { matches, more: true };
    matches.push({ file: relative, line: i + 1, text: lines[i]! });
  }
  return { matches, more: false };
}
