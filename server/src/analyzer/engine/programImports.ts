import type { ts } from "ts-morph";
import type { HookLibraries } from "./hookLibraries.js";
import { leftOutOfProgram } from "./leftOutDeclarations.js";
import type { HookLibraryReach } from "./reach/hookLibraryReach.js";

/**
 * Which modules a project's programs hold, and what each file's imports resolved to there (the
 * prune's edges). Packages and hook libraries are resolved as the compiler would (less the few
 * modules leftOutDeclarations.ts names); project modules only when imported by an analysed file
 * directly or when they hand a hook library on.
 */
export class ProgramImports {
  /** What each file's imports resolved to in the program, so modules no longer reached can be dropped. */
  readonly edges = new Map<string, string[]>();
  readonly #reach: HookLibraryReach;
  readonly #libraries: HookLibraries;
  readonly #roots: ReadonlySet<string>;

  constructor(reach: HookLibraryReach, libraries: HookLibraries, roots: ReadonlySet<string>) {
    this.#reach = reach;
    this.#libraries = libraries;
    this.#roots = roots;
  }

  /** Resolution for the program, when it holds the module; undefined when it leaves it out. `resolvedAtAll` hears of every resolution not left out. */
  resolve(name: string, containingFile: string, resolvedAtAll?: (resolved: ts.ResolvedModuleFull) => void): ts.ResolvedModuleFull | undefined {
    const resolved = this.#reach.resolve(name, containingFile);
    if (!resolved || leftOutOfProgram(containingFile, resolved.resolvedFileName)) return undefined;
    resolvedAtAll?.(resolved);
    return this.#inProgram(name, containingFile, resolved) ? resolved : undefined;
  }

  /**
   * The program's resolution of an import that syntax follows (for the program about to be built
   * with the current roots), noted as an edge for the prune: the module it loads is then dropped
   * with the file that led to it.
   */
  followed(name: string, containingFile: string): ts.ResolvedModuleFull | undefined {
    const resolved = this.resolve(name, containingFile);
    if (!resolved) return undefined;
    const edges = this.edges.get(containingFile);
    if (!edges) this.edges.set(containingFile, [resolved.resolvedFileName]);
    else if (!edges.includes(resolved.resolvedFileName)) edges.push(resolved.resolvedFileName);
    return resolved;
  }

  #inProgram(name: string, containingFile: string, resolved: ts.ResolvedModuleFull): boolean {
    return (
      resolved.isExternalLibraryImport ||
      this.#libraries.isSpecifier(name) ||
      this.#roots.has(containingFile) ||
      this.#reach.isHookLibraryFile(containingFile) ||
      this.#reach.isHookLibraryFile(resolved.resolvedFileName) ||
      this.#reach.exposesHookLibrary(resolved.resolvedFileName)
    );
  }
}
