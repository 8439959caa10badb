import { existsSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { AnalysisProject } from "../analyzer/project.js";
import type { AnalysisResult } from "../analyzer/analyze.js";

interface CachedAnalysis {
  version: number;
  result: AnalysisResult;
  lineStarts: number[];
}

/**
 * The server's view of the workspace: one AnalysisProject per workspace folder (or per nearest
 * tsconfig.json for files outside every folder), and one cached analysis per (document, version)
 * so diagnostics and hovers never analyse the same text twice.
 */
export class Workspace {
  readonly #folders: string[] = [];
  readonly #projects = new Map<string, AnalysisProject>();
  readonly #cache = new Map<string, CachedAnalysis>();

  setFolders(folderUris: readonly string[]): void {
    this.#folders.splice(0, this.#folders.length, ...folderUris.filter((u) => u.startsWith("file:")).map((u) => fileURLToPath(u)));
    this.#folders.sort((a, b) => b.length - a.length);
  }

  /** Analyses a document's current text, or returns the cached result for this version. */
  analyze(uri: string, version: number, text: string, isCancelled: () => boolean): CachedAnalysis {
    const cached = this.#cache.get(uri);
    if (cached && cached.version === version) return cached;
    const filePath = toFilePath(uri);
    const project = this.#projectFor(filePath);
    project.setText(filePath, text);
    const result = project.analyze(filePath, { isCancelled });
    const entry = { version, result, lineStarts: lineStartsOf(text) };
    this.#cache.set(uri, entry);
    return entry;
  }

  /** The analysis of this exact version, if it was computed. */
  cached(uri: string, version: number): CachedAnalysis | undefined {
    const cached = this.#cache.get(uri);
    return cached?.version === version ? cached : undefined;
  }

  /** The document was closed: drop its buffer so other files see the saved version again. */
  close(uri: string): void {
    this.#cache.delete(uri);
    const filePath = toFilePath(uri);
    for (const project of this.#projects.values()) project.remove(filePath);
  }

  #projectFor(filePath: string): AnalysisProject {
    const root = this.#folders.find((folder) => filePath.startsWith(folder + sep)) ?? nearestConfigDir(filePath);
    let project = this.#projects.get(root);
    if (!project) this.#projects.set(root, (project = new AnalysisProject(root)));
    return project;
  }
}

/** `file:` URIs map to their path; other schemes (untitled:) to a stable virtual path. */
function toFilePath(uri: string): string {
  if (uri.startsWith("file:")) return fileURLToPath(uri);
  const name = uri.replace(/[^A-Za-z0-9._-]+/g, "_");
  return join(sep, "__hooklens_virtual__", /\.[cm]?[jt]sx?$/.test(name) ? name : `${name}.ts`);
}

function nearestConfigDir(filePath: string): string {
  for (let dir = dirname(filePath); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "tsconfig.json"))) return dir;
    if (dirname(dir) === dir) return dirname(filePath);
  }
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}
