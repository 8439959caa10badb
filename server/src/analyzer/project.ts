import { existsSync } from "node:fs";
import { join } from "node:path";
import { Project, ts, type SourceFile } from "ts-morph";
import { analyzeSourceFile, type AnalysisResult, type AnalyzeOptions } from "./analyze.js";

/** File extensions the analyzer reads. */
export const ANALYZED_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

const FALLBACK_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  esModuleInterop: true,
  skipLibCheck: true,
  strict: true,
};

/**
 * One long-lived ts-morph project for a folder: the folder's tsconfig.json when it has one
 * (imports then resolve exactly as in the user's build), otherwise sensible defaults. Files are
 * added one at a time, so only what is analysed (and what it imports) is ever loaded.
 */
export class AnalysisProject {
  readonly rootDir: string;
  readonly #project: Project;

  constructor(rootDir: string, options: { compilerOptions?: ts.CompilerOptions } = {}) {
    this.rootDir = rootDir;
    const tsConfigFilePath = join(rootDir, "tsconfig.json");
    const overrides: ts.CompilerOptions = { allowJs: true, noEmit: true, ...options.compilerOptions };
    this.#project = existsSync(tsConfigFilePath)
      ? new Project({ tsConfigFilePath, skipAddingFilesFromTsConfig: true, compilerOptions: overrides })
      : new Project({ compilerOptions: { ...FALLBACK_OPTIONS, ...overrides } });
  }

  /** Sets a file's text (an open editor buffer); replaces any earlier version. */
  setText(filePath: string, text: string): SourceFile {
    return this.#project.createSourceFile(filePath, text, { overwrite: true });
  }

  /** Reads a file from disk into the project (or refreshes it). */
  addFromDisk(filePath: string): SourceFile {
    const existing = this.#project.getSourceFile(filePath);
    if (existing) {
      void existing.refreshFromFileSystemSync();
      return existing;
    }
    return this.#project.addSourceFileAtPath(filePath);
  }

  /** Forgets a file (closed or deleted). */
  remove(filePath: string): void {
    const file = this.#project.getSourceFile(filePath);
    if (file) this.#project.removeSourceFile(file);
  }

  has(filePath: string): boolean {
    return this.#project.getSourceFile(filePath) !== undefined;
  }

  analyze(filePath: string, options?: AnalyzeOptions): AnalysisResult {
    const file = this.#project.getSourceFile(filePath) ?? this.addFromDisk(filePath);
    return analyzeSourceFile(file, options);
  }
}
