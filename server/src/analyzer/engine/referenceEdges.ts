import { dirname, resolve } from "node:path";
import { ts } from "ts-morph";

/**
 * What a file includes besides imports, for the prune's reachability: triple-slash references by
 * path and by types. Without them the prune dropped most of `@types/node` (its entry pulls its
 * files in by `/// <reference path>`) after every closed file, and the next program parsed it
 * all again.
 *
 * Resolutions are cached for one prune only: a package installed meanwhile is seen next time.
 */
export class ReferenceEdges {
  readonly #program: ts.Program;
  readonly #typePackages = new Map<string, string | undefined>();

  constructor(program: ts.Program) {
    this.#program = program;
  }

  /** The files `path` includes by `/// <reference path>` and `/// <reference types>`. */
  of(path: string): string[] {
    const file = this.#program.getSourceFile(path);
    if (!file) return [];
    const byPath = file.referencedFiles.flatMap(({ fileName }) => this.#held(resolve(dirname(file.fileName), fileName)) ?? []);
    const byTypes = file.typeReferenceDirectives.flatMap(({ fileName }) => this.#typePackage(fileName, file.fileName) ?? []);
    return [...byPath, ...byTypes];
  }

  /** A referenced path as the program holds it (TypeScript adds an extension the reference may leave out). */
  #held(path: string): string | undefined {
    const slashed = path.replace(/\\/g, "/");
    return [slashed, `${slashed}.ts`, `${slashed}.d.ts`].find((candidate) => this.#program.getSourceFile(candidate));
  }

  #typePackage(name: string, containingFile: string): string | undefined {
    const key = `${dirname(containingFile)}\0${name}`;
    if (!this.#typePackages.has(key)) {
      const { resolvedTypeReferenceDirective } = ts.resolveTypeReferenceDirective(name, containingFile, this.#program.getCompilerOptions(), ts.sys);
      this.#typePackages.set(key, resolvedTypeReferenceDirective?.resolvedFileName);
    }
    return this.#typePackages.get(key);
  }
}

/** The files reached from `roots` through the imports the program resolved and the references each file includes. */
export function reachedFrom(roots: Iterable<string>, imports: ReadonlyMap<string, readonly string[]>, references: ReferenceEdges): Set<string> {
  const reached = new Set<string>();
  const pending = [...roots];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (reached.has(path)) continue;
    reached.add(path);
    pending.push(...(imports.get(path) ?? []), ...references.of(path));
  }
  return reached;
}
