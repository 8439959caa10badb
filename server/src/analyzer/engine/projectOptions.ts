import { existsSync } from "node:fs";
import { join } from "node:path";
import { ts } from "ts-morph";
import { tsconfigCompilerOptions } from "./tsconfigOptions.js";
import type { ImportLists } from "./reach/importLists.js";
import type { ReferenceLists } from "./reach/referenceLists.js";
import type { LibraryParses } from "./libraryParses.js";
import type { Pack } from "./pack.js";

/** The compiler options of a folder without a tsconfig.json. */
const FALLBACK_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  esModuleInterop: true,
  skipLibCheck: true,
  strict: true,
};

/** How a project is made; see the constructor. */
export interface ProjectOptions {
  /** The hook libraries' packs whose rules run (packs/index.ts lists them all). */
  packs: readonly Pack[];
  compilerOptions?: ts.CompilerOptions;
  tsConfigFilePath?: string;
  libraryParses?: LibraryParses;
  importLists?: ImportLists;
  referenceLists?: ReferenceLists;
  followImports?: boolean;
}

/** How much type-checker work a project has done: what the tests and the bench look at. */
export interface ProjectStats {
  /** Analyses that ran the rules (and so could ask the type checker). */
  checkedAnalyses: number;
  /** Analyses answered from syntax alone: the file cannot reach a hook library. */
  skippedAnalyses: number;
  /** Analyses answered by moving the previous version's findings: the edit could not change them (neutralEdit.ts). */
  reusedAnalyses: number;
  /** Files on disk read and pre-processed to list the modules they import (saved import lists spare unchanged ones). */
  filesListed: number;
  /** Files read for the runtime's-side walk: pre-processed for their references, or parsed to tell whether they add to other modules (saved reference lists spare unchanged ones on disk). */
  filesScanned: number;
  /** Library declaration files (packages, @types, the standard library) parsed, each once until the prune drops it or it changes on disk. */
  packageFilesParsed: number;
  /** Paths looked up in the ts-morph project to know whether it holds them (kept until it adds or removes a file). */
  heldFileLookups: number;
  /** Analyses whose program TypeScript could reuse nothing of (after opening or closing a file, not after an edit). */
  programsBuiltWhole: number;
  /** Editor buffers' new text put into the program by re-parsing only the edited region (incrementalReparse.ts). */
  buffersReparsedIncrementally: number;
  /** Editor buffers' text parsed whole into the program (the first time, or where an incremental re-parse cannot be done). */
  buffersParsedWhole: number;
}

/** A project's stats before any work. */
export function noStats(): ProjectStats {
  return { checkedAnalyses: 0, skippedAnalyses: 0, reusedAnalyses: 0, filesListed: 0, filesScanned: 0, packageFilesParsed: 0, heldFileLookups: 0, programsBuiltWhole: 0, buffersReparsedIncrementally: 0, buffersParsedWhole: 0 };
}

/** The folder's tsconfig options (or `options.tsConfigFilePath`'s, or defaults), with JavaScript analysed and nothing emitted. */
export function projectCompilerOptions(rootDir: string, options: ProjectOptions): ts.CompilerOptions {
  const tsConfigFilePath = options.tsConfigFilePath ?? join(rootDir, "tsconfig.json");
  const base = existsSync(tsConfigFilePath) ? tsconfigCompilerOptions(tsConfigFilePath) : FALLBACK_OPTIONS;
  return { ...base, allowJs: true, noEmit: true, ...options.compilerOptions };
}
