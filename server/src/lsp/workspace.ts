import { existsSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { AnalysisProject } from "../analyzer/index.js";
import type { AnalysisResult } from "../analyzer/index.js";
import type { ImportLists } from "../analyzer/engine/reach/importLists.js";
import type { ReferenceLists } from "../analyzer/engine/reach/referenceLists.js";
import { unreadableFileNotice } from "../analyzer/engine/unreadableFile.js";
import { carryFailedRules } from "./carryOver.js";

export interface CachedAnalysis {
  version: number;
  /** The analysed text: a version number sent twice with different text must not hit the cache. */
  text: string;
  result: AnalysisResult;
  lineStarts: number[];
}

/**
 * The server's view of the workspace: one AnalysisProject per workspace folder (or per nearest
 * tsconfig.json for files outside every folder), and one cached analysis per (document, version,
 * text) so diagnostics, hovers and code actions never analyse the same text twice.
 */
export class Workspace {
  readonly #folders: string[] = [];
  readonly #projects = new Map<string, AnalysisProject>();
  readonly #cache = new Map<string, CachedAnalysis>();
  /** The latest analysis of each open document, even when outdated: its findings of failed rules carry over. */
  readonly #previous = new Map<string, CachedAnalysis>();
  #analyses = 0;
  /** Files' module specifiers kept between starts, per project root (kept across project resets). */
  readonly #importLists = new Map<string, ImportLists | undefined>();
  readonly #importListsFor: ((root: string) => ImportLists | undefined) | undefined;
  /** Files' references (the runtime's-side walk's) kept between starts, per project root (kept across project resets). */
  readonly #referenceLists = new Map<string, ReferenceLists | undefined>();
  readonly #referenceListsFor: ((root: string) => ReferenceLists | undefined) | undefined;

  /** `importListsFor`, `referenceListsFor`: the saved lists of a project root (the server's; none in tests unless given). */
  constructor(options: { importListsFor?: (root: string) => ImportLists | undefined; referenceListsFor?: (root: string) => ReferenceLists | undefined } = {}) {
    this.#importListsFor = options.importListsFor;
    this.#referenceListsFor = options.referenceListsFor;
  }

  setFolders(folderUris: readonly string[]): void {
    this.#folders.splice(0, this.#folders.length, ...folderUris.filter((u) => u.startsWith("file:")).map((u) => fileURLToPath(u)));
    this.#folders.sort((a, b) => b.length - a.length);
  }

  /**
   * Analyses a document's current text, or returns the cached result for this version and text.
   * An analysis stopped by `isCancelled` (a newer version arrived) is returned but not cached.
   */
  analyze(uri: string, version: number, text: string, isCancelled: () => boolean): CachedAnalysis {
    const cached = this.cached(uri, version, text);
    if (cached) return cached;
    const filePath = toFilePath(uri);
    const project = this.#projectFor(filePath);
    project.setBuffer(filePath, text);
    this.#analyses++;
    const lineStarts = lineStartsOf(text);
    const result = carryFailedRules(this.#previous.get(uri), { text, lineStarts }, analyzeOrExplain(project, filePath, isCancelled));
    const entry = { version, text, result, lineStarts };
    if (isCancelled()) return entry;
    this.#cache.set(uri, entry);
    this.#previous.set(uri, entry);
    return entry;
  }

  /** The analysis of this exact version and text, if it was computed. */
  cached(uri: string, version: number, text: string): CachedAnalysis | undefined {
    const cached = this.#cache.get(uri);
    return cached?.version === version && cached.text === text ? cached : undefined;
  }

  /** How many analyses ran (cache misses) since the server started. */
  get analysisCount(): number {
    return this.#analyses;
  }

  /** The document was closed: drop its buffer so other files see the saved version again, and any project left with nothing open. */
  close(uri: string): void {
    this.#cache.delete(uri);
    this.#previous.delete(uri);
    const filePath = toFilePath(uri);
    for (const [root, project] of this.#projects) {
      project.remove(filePath);
      if (project.isIdle()) this.#projects.delete(root);
    }
  }

  /** Whether analysing this version will first load a program (seconds, not milliseconds): worth showing progress. */
  isColdLoad(uri: string, version: number, text: string): boolean {
    if (this.cached(uri, version, text)) return false;
    const filePath = toFilePath(uri);
    const project = this.#projectFor(filePath);
    project.setBuffer(filePath, text);
    return project.needsProgram(filePath);
  }

  /** The projects currently held (one per workspace folder or tsconfig root with open files). */
  get projectCount(): number {
    return this.#projects.size;
  }

  /**
   * A file changed on disk that is not open in the editor: projects that loaded it read it again
   * (or forget it when deleted), and every cached analysis is dropped, since any open file may import it.
   */
  fileChangedOnDisk(filePath: string, deleted: boolean): void {
    for (const project of this.#projects.values()) project.fileChangedOnDisk(filePath, deleted || !existsSync(filePath));
    this.#cache.clear();
  }

  /** A tsconfig.json or package.json changed: module resolution may differ, so every project starts afresh. */
  resetProjects(): void {
    this.#projects.clear();
    this.#cache.clear();
  }

  #projectFor(filePath: string): AnalysisProject {
    const root = this.#folders.find((folder) => filePath.startsWith(folder + sep)) ?? nearestConfigDir(filePath);
    let project = this.#projects.get(root);
    if (!project) this.#projects.set(root, (project = new AnalysisProject(root, { importLists: this.#importListsOf(root), referenceLists: this.#referenceListsOf(root) })));
    return project;
  }

  #importListsOf(root: string): ImportLists | undefined {
    if (!this.#importLists.has(root)) this.#importLists.set(root, this.#importListsFor?.(root));
    return this.#importLists.get(root);
  }

  #referenceListsOf(root: string): ReferenceLists | undefined {
    if (!this.#referenceLists.has(root)) this.#referenceLists.set(root, this.#referenceListsFor?.(root));
    return this.#referenceLists.get(root);
  }
}

/**
 * The analysis, or, when TypeScript itself gives up on the file (its parser and checker recurse, so
 * deep nesting overflows the stack), a notice saying the file was not analysed: never an error
 * answer that leaves the editor showing nothing.
 */
function analyzeOrExplain(project: AnalysisProject, filePath: string, isCancelled: () => boolean): AnalysisResult {
  try {
    return project.analyze(filePath, { isCancelled });
  } catch (error) {
    return { findings: [], failures: [], notices: [unreadableFileNotice(filePath, error)] };
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
