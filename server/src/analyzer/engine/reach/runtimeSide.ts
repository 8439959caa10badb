import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ts } from "ts-morph";
import { isJavaScriptPath } from "../javaScriptFiles.js";
import { FileReferenceCache, type FileReferences } from "./fileReferences.js";
import type { ReferenceLists } from "./referenceLists.js";

/** What the program an analysis would build starts from, and how it resolves what its files name. */
export interface ProgramShape {
  /** The program's root files (a superset does no harm: more files are only more to check). */
  roots(): Iterable<string>;
  /** The program's module resolution (files it leaves out may be resolved here too). */
  resolve(specifier: string, containingFile: string): ts.ResolvedModuleFull | undefined;
  isRuntimeFile(path: string): boolean;
  /** Whether a module specifier names a hook library (the "runtime" whose side this is). */
  isRuntimeSpecifier(specifier: string): boolean;
  bufferText(path: string): string | undefined;
  options: ts.CompilerOptions;
  /** Folders the program may look for `@types` packages from (its current directory, the project's). */
  typeDirectories: readonly string[];
}

/**
 * Which files of the program an analysis would build are on the runtime's side: runtime files, and
 * files that name the runtime or a file on its side (imports and re-exports, `require`,
 * `import()` and import types, `/// <reference>`s), found from the program's roots and its
 * automatic `@types` packages by syntax, with no program.
 *
 * Why it answers "this import hands on none of the runtime's bindings": the checker follows an
 * alias only through what the file that declares it names (its imports, module and namespace
 * names in its scope), through ambient modules and module augmentations, and through globals. A
 * file off the runtime's side names nothing on it; so as long as no file on the runtime's side
 * adds to another module or to the globals (each is a module with no `declare module "…"`,
 * `declare global` or `export as namespace`), every declaration an alias chain reaches from a file
 * off the side is off it too, and none is the runtime's, nor an import naming it. One file that
 * could add to others, or one that cannot be read as TypeScript (JavaScript), and nothing is
 * answered.
 */
export class RuntimeSide {
  readonly #shape: ProgramShape;
  readonly #references: FileReferenceCache;
  /** Whether an editor buffer on the runtime's side adds nothing to other modules or the globals, by path, with the text it was read from. */
  readonly #confinedBuffers = new Map<string, { text: string; confined: boolean }>();
  /** This analysis's answer (until `refresh`). */
  #current: Walked | undefined;
  /** The last walk's answer, with the references of every file that may change unseen it was found from. */
  #last: (Walked & { watched: Map<string, FileReferences | undefined> }) | undefined;

  /** `savedReferences`: files' references kept from an earlier start; `onScanned`: called for each file read and pre-processed. */
  constructor(shape: ProgramShape, more: { savedReferences?: ReferenceLists; onScanned?: () => void } = {}) {
    this.#shape = shape;
    this.#references = new FileReferenceCache((path) => shape.bufferText(path), { saved: more.savedReferences, onScanned: more.onScanned });
  }

  /** Files may have changed: the next question looks again (the last answer stands if no root or project file's references changed). */
  refresh(): void {
    this.#current = undefined;
  }

  /** A file changed on disk or was closed: its references are read again. */
  changed(path: string): void {
    this.#references.forget(path);
    this.#last = undefined;
  }

  /**
   * Whether the module `specifier` names from `importer` (a root of the program) is certainly off
   * the runtime's side, so no member of what it exports is an alias of a runtime binding. False
   * when that cannot be shown.
   */
  isOffSide(specifier: string, importer: string): boolean {
    if (this.#shape.isRuntimeSpecifier(specifier)) return false;
    // A module that names the runtime itself is on its side: said without the walk (a hook module's shared bus, its relays).
    const target = this.#shape.resolve(specifier, importer)?.resolvedFileName;
    if (target !== undefined && (this.#shape.isRuntimeFile(target) || this.#references.of(target)?.modules.some((module) => this.#shape.isRuntimeSpecifier(module)))) return false;
    const roots = [...this.#shape.roots()];
    // A question about a file the walk did not start from (opened since) walks again.
    if (!this.#current || !sameRoots(this.#current.roots, roots) || !this.#current.seen.has(importer)) this.#current = this.#sideNow(roots);
    const side = this.#current.files;
    if (!side) return false;
    // Unresolved: the checker takes an ambient module, declared by a file that adds to others, which is off the side.
    return target === undefined || !side.has(target);
  }

  /** The last walk's answer while its roots and every project file's references are as they were, else a new walk's. */
  #sideNow(roots: string[]): Walked {
    const last = this.#last;
    if (last && sameRoots(last.roots, roots) && [...last.watched].every(([path, references]) => this.#references.of(path) === references)) return last;
    const watched = new Map<string, FileReferences | undefined>();
    const seen = new Set<string>();
    const files = this.#find(roots, watched, seen);
    this.#last = { roots, files, seen, watched };
    return this.#last;
  }

  /** The files on the runtime's side, or null when one of them may add to other modules or the globals. */
  #find(roots: readonly string[], watched: Map<string, FileReferences | undefined>, seen: Set<string>): ReadonlySet<string> | null {
    const { named, reverse, unreadableRoot } = this.#walk(roots, watched, seen);
    if (unreadableRoot) return null;
    const side = new Set<string>();
    const pending = [...named];
    for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
      if (side.has(path)) continue;
      side.add(path);
      pending.push(...(reverse.get(path) ?? []));
    }
    for (const path of side) if (!this.#isConfined(path)) return null;
    return side;
  }

  /** Every file the program can hold, which name the runtime (or are its files), and who names whom (reversed). */
  #walk(roots: readonly string[], watched: Map<string, FileReferences | undefined>, seen: Set<string>): { named: Set<string>; reverse: Map<string, string[]>; unreadableRoot: boolean } {
    const named = new Set<string>();
    const reverse = new Map<string, string[]>();
    const pending = [...roots, ...this.#automaticTypes()];
    let unreadableRoot = false;
    const edge = (from: string, to: string) => {
      const into = reverse.get(to);
      if (into) into.push(from);
      else reverse.set(to, [from]);
      pending.push(to);
    };
    for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
      if (seen.has(path)) continue;
      seen.add(path);
      if (this.#shape.isRuntimeFile(path)) named.add(path);
      const references = this.#references.of(path);
      if (this.#references.isWatched(path)) watched.set(path, references);
      if (!references) {
        if (roots.includes(path)) unreadableRoot = true;
        continue;
      }
      for (const specifier of references.modules) {
        if (this.#shape.isRuntimeSpecifier(specifier)) named.add(path);
        const resolved = this.#shape.resolve(specifier, path);
        if (resolved) edge(path, resolved.resolvedFileName);
      }
      for (const written of references.paths) {
        const target = referencedPath(path, written);
        if (target) edge(path, target);
      }
      for (const name of references.types) {
        if (this.#shape.isRuntimeSpecifier(name)) named.add(path);
        const target = this.#typePackage(name, path);
        if (target) edge(path, target);
      }
    }
    return { named, reverse, unreadableRoot };
  }

  /** The entry files of the `@types` packages a program includes without being asked (or those `types` lists). */
  #automaticTypes(): string[] {
    const { options, typeDirectories } = this.#shape;
    const found = new Set<string>();
    for (const directory of typeDirectories) {
      const host = { ...ts.sys, getCurrentDirectory: () => directory };
      const names = options.types ?? ts.getAutomaticTypeDirectiveNames(options, host);
      for (const name of names) {
        const target = this.#typePackage(name, join(directory, "__inferred type names__.ts"));
        if (target) found.add(target);
      }
    }
    return [...found];
  }

  #typePackage(name: string, containingFile: string): string | undefined {
    return ts.resolveTypeReferenceDirective(name, containingFile, this.#shape.options, ts.sys).resolvedTypeReferenceDirective?.resolvedFileName;
  }

  /** Whether a file adds nothing to other modules or to the globals: a TypeScript module with no augmentation and no UMD name. */
  #isConfined(path: string): boolean {
    if (isJavaScriptPath(path) || path.endsWith(".json")) return false;
    const text = this.#shape.bufferText(path);
    // A file on disk: kept (and saved between starts) with its references, by its mtime and size.
    if (text === undefined) return this.#references.confinedOnDisk(path, (read) => addsToNothingElse(path, read)) ?? false;
    const known = this.#confinedBuffers.get(path);
    if (known?.text === text) return known.confined;
    const confined = addsToNothingElse(path, text);
    this.#confinedBuffers.set(path, { text, confined });
    return confined;
  }
}

/** One walk: the roots it started from, every file it reached, and the runtime's side (null: nothing can be answered). */
interface Walked {
  roots: readonly string[];
  seen: ReadonlySet<string>;
  files: ReadonlySet<string> | null;
}

function sameRoots(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((root, i) => root === b[i]);
}

function addsToNothingElse(path: string, text: string): boolean {
  // Comments cannot add to anything: JSDoc is skipped (most of a declaration file's text).
  const file = ts.createSourceFile(path, text, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, false);
  // A script's top-level declarations are globals (and its `declare module "x"` ambient modules).
  if (!ts.isExternalModule(file)) return false;
  return file.statements.every(
    (statement) =>
      !ts.isNamespaceExportDeclaration(statement) &&
      !(ts.isModuleDeclaration(statement) && (ts.isStringLiteral(statement.name) || (statement.flags & ts.NodeFlags.GlobalAugmentation) !== 0)),
  );
}

/** A `/// <reference path>` target as TypeScript finds it: the path as written, else with a TypeScript extension added. */
function referencedPath(containingFile: string, written: string): string | undefined {
  const base = resolve(dirname(containingFile), written);
  return [base, `${base}.ts`, `${base}.tsx`, `${base}.d.ts`].find(isFile);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
