import type { ts } from "ts-morph";
import type { ExportFacts } from "./reach/moduleScan.js";

/** What syntax knows of a project's modules (the hook-library reach implements it; nothing here builds a program). */
export interface ModuleExports {
  resolve(specifier: string, containingFile: string): ts.ResolvedModuleFull | undefined;
  /** Whether a module specifier names one of the packs' hook libraries (or a subpath of one). */
  isHookLibrarySpecifier(specifier: string): boolean;
  isHookLibraryFile(path: string): boolean;
  exposesHookLibrary(path: string): boolean;
  exportsOf(path: string): ExportFacts | undefined;
  /** Whether a module an analysed file imports is certainly off the hook libraries' side (reach/runtimeSide.ts); absent: never known. */
  isOffRuntimeSide?(specifier: string, importer: string): boolean;
}

/** An answer syntax settles, or undefined when only the type checker can tell. */
export type Settled<T> = T | undefined;
