import { fileStampOf, readTextIfAny } from "./diskFiles.js";
import { dirname } from "node:path";
import { ts } from "ts-morph";
import type { HookLibraries } from "../hookLibraries.js";
import type { ModuleExports } from "../moduleExports.js";
import type { ImportLists } from "./importLists.js";
import { mayChangeUnseen, type FileStamp } from "./stampedLists.js";
import { exportFacts, handsOn, moduleSpecifiers, type ExportFacts } from "./moduleScan.js";
import { PackageNames } from "./packageNames.js";

interface FileFacts {
  /** The text these facts were derived from: a buffer's text, or the file's mtime and size on disk. */
  stamp: string | FileStamp;
  specifiers: string[];
  exports?: ExportFacts;
}

/**
 * Which files of one project can touch a hook library, decided syntactically: a file uses one when
 * it imports it, imports a project module that hands it on (re-exports it, or exports something
 * made from it), or belongs to the library's own package. Facts are cached per file and
 * recomputed when its text changes; nothing here builds a program or asks a type checker.
 */
export class HookLibraryReach {
  readonly #options: ts.CompilerOptions;
  readonly #bufferText: (path: string) => string | undefined;
  readonly #facts = new Map<string, FileFacts>();
  readonly #exposes = new Map<string, boolean>();
  /** Modules whose `exposesHookLibrary` answer is being worked out (an import cycle comes back to them). */
  readonly #deciding = new Set<string>();
  /** Whether the answer being worked out used a guess about a module in {@link #deciding}. */
  #guessed = false;
  readonly #resolutions: ts.ModuleResolutionCache;
  readonly #packages: PackageNames;
  readonly #importLists: ImportLists | undefined;
  readonly #onListed: () => void;
  readonly #libraries: HookLibraries;

  /**
   * `libraries`: the hook libraries of the packs in use.
   * `packages`: package names by folder, shared with whoever else asks them for this project.
   * `importLists`: files' module specifiers kept from earlier starts (files on disk only).
   * `onListed`: called for each file read and pre-processed to list its imports.
   */
  constructor(
    libraries: HookLibraries,
    options: ts.CompilerOptions,
    bufferText: (path: string) => string | undefined,
    currentDirectory: string,
    more: { packages?: PackageNames; importLists?: ImportLists; onListed?: () => void } = {},
  ) {
    this.#libraries = libraries;
    this.#packages = more.packages ?? new PackageNames();
    this.#importLists = more.importLists;
    this.#onListed = more.onListed ?? (() => undefined);
    this.#options = options;
    this.#bufferText = bufferText;
    this.#resolutions = ts.createModuleResolutionCache(currentDirectory, (name) => name, options);
  }

  /** Whether analysing `path` can find anything: it references a hook library, directly or through the project. */
  usesHookLibrary(path: string): boolean {
    if (this.isHookLibraryFile(path)) return true;
    const facts = this.#factsOf(path);
    return facts !== undefined && facts.specifiers.some((specifier) => this.#reaches(specifier, path));
  }

  /** Whether the project module at `path` hands a hook library's bindings on to its importers. */
  exposesHookLibrary(path: string): boolean {
    const known = this.#exposes.get(path);
    if (known !== undefined) return known;
    // An import cycle back to a module still being decided adds nothing to it: it counts as not
    // handing a library on for now. A "no" reached through such a guess is kept only once the
    // outermost module is decided (it may have become a "yes"); a "yes" is final at once.
    if (this.#deciding.has(path)) {
      this.#guessed = true;
      return false;
    }
    this.#deciding.add(path);
    const guessedOutside = this.#guessed;
    this.#guessed = false;
    const facts = this.#factsOf(path);
    const reaching = new Set(facts?.specifiers.filter((specifier) => this.#reaches(specifier, path)));
    let exposes = false;
    if (facts && reaching.size > 0) exposes = handsOn(this.#exportsOf(path, facts), (module) => reaching.has(module));
    this.#deciding.delete(path);
    const guessed = this.#guessed;
    this.#guessed = this.#deciding.size > 0 && (guessedOutside || guessed);
    if (exposes || !guessed || this.#deciding.size === 0) this.#exposes.set(path, exposes);
    return exposes;
  }

  /** What the module at `path` imports and exports (its current text, parsed once per version); undefined when it cannot be read. */
  exportsOf(path: string): ExportFacts | undefined {
    const facts = this.#factsOf(path);
    return facts && this.#exportsOf(path, facts);
  }

  #exportsOf(path: string, facts: FileFacts): ExportFacts {
    return (facts.exports ??= exportFacts(path, this.#textOf(path) ?? ""));
  }

  /** Whether a module specifier names a hook library (or a subpath of one). */
  isHookLibrarySpecifier(specifier: string): boolean {
    return this.#libraries.isSpecifier(specifier);
  }

  /** Whether `path` is part of a hook library's own package (its sources reference it by relative paths). */
  isHookLibraryFile(path: string): boolean {
    const name = this.#packages.nameFor(dirname(path));
    return name !== null && this.#libraries.isPackage(name);
  }

  /** A module of this project that `specifier` names from `containingFile`; undefined for packages and unresolved names. */
  resolveProjectModule(specifier: string, containingFile: string): string | undefined {
    const resolved = this.resolve(specifier, containingFile);
    return resolved && !resolved.isExternalLibraryImport ? resolved.resolvedFileName : undefined;
  }

  resolve(specifier: string, containingFile: string): ts.ResolvedModuleFull | undefined {
    return ts.resolveModuleName(specifier, containingFile, this.#options, ts.sys, this.#resolutions).resolvedModule;
  }

  /** A file's text changed or its buffer closed: forget its facts; if whether it hands a library on flipped, everything derived is stale. */
  changed(path: string): void {
    this.#facts.delete(path);
    const before = this.#exposes.get(path);
    if (before === undefined) return;
    this.#exposes.delete(path);
    if (this.exposesHookLibrary(path) !== before) this.#exposes.clear();
  }

  #reaches(specifier: string, containingFile: string): boolean {
    if (this.isHookLibrarySpecifier(specifier)) return true;
    const target = this.resolveProjectModule(specifier, containingFile);
    return target !== undefined && (this.isHookLibraryFile(target) || this.exposesHookLibrary(target));
  }

  #factsOf(path: string): FileFacts | undefined {
    const buffer = this.#bufferText(path);
    if (buffer !== undefined) {
      const cached = this.#facts.get(path);
      if (cached?.stamp === buffer) return cached;
      return this.#remember(path, { stamp: buffer, specifiers: moduleSpecifiers(buffer) });
    }
    // Stamped before reading: a file changed in between is listed again next time, never kept stale.
    const stamp = fileStampOf(path);
    if (stamp === undefined) return undefined;
    const cached = this.#facts.get(path);
    if (cached && sameStamp(cached.stamp, stamp)) return cached;
    const listed = this.#importLists?.get(path, stamp);
    if (listed) return this.#remember(path, { stamp, specifiers: listed });
    const text = readTextIfAny(path);
    if (text === undefined) return undefined;
    this.#onListed();
    const specifiers = moduleSpecifiers(text);
    if (!mayChangeUnseen(stamp)) this.#importLists?.set(path, stamp, specifiers);
    return this.#remember(path, { stamp, specifiers });
  }

  #remember(path: string, facts: FileFacts): FileFacts {
    this.#facts.set(path, facts);
    return facts;
  }

  #textOf(path: string): string | undefined {
    return this.#bufferText(path) ?? readTextIfAny(path);
  }
}

/** What syntax knows of the project's modules, as the reach alone tells it (bound methods, so it can be spread into more). */
export function reachModules(reach: HookLibraryReach): ModuleExports {
  return {
    resolve: (specifier, from) => reach.resolve(specifier, from),
    isHookLibrarySpecifier: (specifier) => reach.isHookLibrarySpecifier(specifier),
    isHookLibraryFile: (path) => reach.isHookLibraryFile(path),
    exposesHookLibrary: (path) => reach.exposesHookLibrary(path),
    exportsOf: (path) => reach.exportsOf(path),
  };
}

function sameStamp(a: string | FileStamp, b: FileStamp): boolean {
  return typeof a !== "string" && a.mtimeMs === b.mtimeMs && a.size === b.size;
}

