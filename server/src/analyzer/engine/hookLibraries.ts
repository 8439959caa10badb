/** A hook library as the engine sees it: the package whose version is installed, and the module names that import it. */
export interface HookLibrary {
  /** The npm package (`package.json` name) whose files are the library's own. */
  readonly packageName: string;
  /** Module names that make a file worth analysing; each subpath (`name/…`) counts too. */
  readonly modules: readonly string[];
}

/**
 * The hook libraries of the packs in use: a file that references none of them (directly or
 * through a module of the same project that re-exports one) has nothing to report and gets no
 * type checking at all (the reach's early skip).
 */
export class HookLibraries {
  readonly modules: readonly string[];
  readonly #packageNames: ReadonlySet<string>;

  constructor(libraries: readonly HookLibrary[]) {
    this.modules = [...new Set(libraries.flatMap((library) => library.modules))];
    this.#packageNames = new Set(libraries.map((library) => library.packageName));
  }

  /** Whether a module specifier names a hook library or one of its subpaths. */
  isSpecifier(specifier: string): boolean {
    return this.modules.some((name) => specifier === name || specifier.startsWith(`${name}/`));
  }

  /** Whether a package (by its package.json name) is one of the libraries' own. */
  isPackage(name: string): boolean {
    return this.#packageNames.has(name) || this.modules.includes(name);
  }
}
