import { fileStampOf, readTextIfAny } from "./diskFiles.js";
import { ts } from "ts-morph";
import type { ReferenceLists } from "./referenceLists.js";
import { mayChangeUnseen, type FileStamp } from "./stampedLists.js";

/** Everything by which a file can bring another into a program, as written in it. */
export interface FileReferences {
  /** Module specifiers: imports, re-exports, `import x = require()`, `require()`/`import()` calls, import types. */
  modules: string[];
  /** `/// <reference path>` targets, as written. */
  paths: string[];
  /** `/// <reference types>` names. */
  types: string[];
}

interface Cached {
  /** The buffer text these were read from, or the file's mtime and size on disk. */
  stamp: string;
  references: FileReferences;
  /** Whether the file (on disk) adds nothing to other modules or the globals, once asked. */
  confined?: boolean;
}

/**
 * Each file's references, found by TypeScript's pre-processing scanner (no syntax tree; it
 * finds import types inside type positions and imports inside `declare module` bodies too), kept
 * per file and read again when its buffer text or its mtime and size change. A package's file
 * (under node_modules) is read once until `forget` (the project is told of changes on disk, as
 * for its library parses): looking at the mtime of hundreds of them at every analysis cost more
 * than the rest of the question. A file on disk (a package's too) whose mtime and size are those
 * `saved` (lists kept from an earlier start) holds is not read at all.
 */
export class FileReferenceCache {
  readonly #byPath = new Map<string, Cached>();
  readonly #bufferText: (path: string) => string | undefined;
  readonly #saved: ReferenceLists | undefined;
  readonly #onScanned: () => void;

  /** `onScanned`: called for each file read and pre-processed, or read and parsed by `confinedOnDisk` (not found in memory or in `saved`). */
  constructor(bufferText: (path: string) => string | undefined, more: { saved?: ReferenceLists; onScanned?: () => void } = {}) {
    this.#bufferText = bufferText;
    this.#saved = more.saved;
    this.#onScanned = more.onScanned ?? (() => undefined);
  }

  /** Undefined when the file cannot be read. */
  of(path: string): FileReferences | undefined {
    const buffer = this.#bufferText(path);
    if (buffer === undefined && isPackageFile(path)) {
      const kept = this.#byPath.get(path);
      if (kept) return kept.references;
    }
    // Stamped before reading: a file changed in between is read again next time, never kept stale.
    const onDisk = buffer === undefined ? fileStampOf(path) : undefined;
    const stamp = buffer ?? (onDisk && diskStamp(onDisk));
    if (stamp === undefined) return undefined;
    const cached = this.#byPath.get(path);
    if (cached?.stamp === stamp) return cached.references;
    const saved = onDisk && this.#saved?.get(path, onDisk);
    if (saved) {
      this.#byPath.set(path, { stamp, references: saved, confined: saved.confined });
      return saved;
    }
    const text = buffer ?? readTextIfAny(path);
    if (text === undefined) return undefined;
    this.#onScanned();
    const info = ts.preProcessFile(text, true, true);
    const references: FileReferences = {
      modules: info.importedFiles.map((f) => f.fileName),
      paths: info.referencedFiles.map((f) => f.fileName),
      types: info.typeReferenceDirectives.map((f) => f.fileName),
    };
    this.#byPath.set(path, { stamp, references });
    if (onDisk && !mayChangeUnseen(onDisk)) this.#saved?.set(path, onDisk, references);
    return references;
  }

  /**
   * Whether a file on disk adds nothing to other modules or the globals, as `decide` says of its
   * text (a parse); kept with its references, and saved with them, for its mtime and size, so a
   * restart parses none of the unchanged files on the runtime's side. Undefined when unreadable.
   */
  confinedOnDisk(path: string, decide: (text: string) => boolean): boolean | undefined {
    // Stamped before reading, as in `of`.
    const onDisk = fileStampOf(path);
    if (onDisk === undefined) return undefined;
    const cached = this.#byPath.get(path);
    const current = cached?.stamp === diskStamp(onDisk) ? cached : undefined;
    if (current?.confined !== undefined) return current.confined;
    const text = readTextIfAny(path);
    if (text === undefined) return undefined;
    this.#onScanned();
    const confined = decide(text);
    if (current) {
      current.confined = confined;
      if (!mayChangeUnseen(onDisk)) this.#saved?.set(path, onDisk, { ...current.references, confined });
    }
    return confined;
  }

  /** Whether `path` is a file whose references may change unseen (not a package's), so that `of` looks at it again each time. */
  isWatched(path: string): boolean {
    return this.#bufferText(path) !== undefined || !isPackageFile(path);
  }

  forget(path: string): void {
    this.#byPath.delete(path);
  }
}

function isPackageFile(path: string): boolean {
  return path.includes("/node_modules/");
}

/** A disk file's stamp, marked so that no buffer text can equal it. */
function diskStamp(stamp: FileStamp): string {
  return `\0${stamp.mtimeMs}:${stamp.size}`;
}
