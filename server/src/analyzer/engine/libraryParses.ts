import { ts } from "ts-morph";

const DECLARATION_FILE = /\.d\.([cm]?ts|[^/]+\.ts)$/;
/** TypeScript's standard library (ts-morph serves it from memory under a folder of this name). */
const STANDARD_LIBRARY = /\/typescript\/lib\/lib\.[^/]+\.d\.ts$/;
/** Declaration-only packages, which programs include through `types` (or all of them by default). */
const TYPES_PACKAGE = "/node_modules/@types/";

/**
 * Parses the declaration files of packages (the hook library's and everything they import, the
 * `@types` packages) and TypeScript's standard library without their JSDoc, as `tsc` does, and
 * without a separate pass for parent pointers: in TypeScript, JSDoc never changes a type, and no
 * rule reads a library's comments (they read the analysed file's own). These files are mostly
 * documentation, so this is a good part of the first program's parse at every start; kept, they
 * are parsed and bound once for every program that shares this object.
 *
 * ts-morph parses every file it loads with full JSDoc and takes no option for it, so its compiler
 * host's `getSourceFile` (the host is reached as `this` in our `resolveModuleNames`, see
 * packageJsonCache.ts) is wrapped: a declaration file reached from a package, and not held by the
 * ts-morph project itself, is parsed here and kept until forgotten.
 */
export class LibraryParses {
  /** Declaration files resolved as a package import, or imported by one of those. */
  readonly #files = new Set<string>();
  readonly #parsed = new Map<string, ts.SourceFile>();
  readonly #hosts = new WeakSet<object>();
  readonly #onParse: () => void;

  /** `onParse` is told of every file parsed here (the project's statistics). */
  constructor(onParse: () => void = () => undefined) {
    this.#onParse = onParse;
  }

  /** Records one resolution of the program; call before TypeScript loads the resolved file (it loads imports after resolving them). */
  noteResolution(containingFile: string, resolved: ts.ResolvedModuleFull): void {
    if (!resolved.isExternalLibraryImport && !this.#files.has(containingFile)) return;
    if (DECLARATION_FILE.test(resolved.resolvedFileName)) this.#files.add(resolved.resolvedFileName);
  }

  /** Wraps the host's `getSourceFile` once; `heldByProject` files keep ts-morph's own parse. */
  install(host: unknown, heldByProject: (path: string) => boolean): void {
    const compilerHost = host as Partial<ts.CompilerHost> | undefined;
    if (!compilerHost || typeof compilerHost !== "object" || this.#hosts.has(compilerHost)) return;
    const original = compilerHost.getSourceFile;
    const readFile = compilerHost.readFile;
    if (!original || !readFile) return;
    this.#hosts.add(compilerHost);
    compilerHost.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
      const own = this.#isLibrary(fileName) && !heldByProject(fileName) ? this.#parse(fileName, languageVersionOrOptions, readFile) : undefined;
      return own ?? original(fileName, languageVersionOrOptions, onError, shouldCreate);
    };
  }

  #isLibrary(fileName: string): boolean {
    return this.#files.has(fileName) || STANDARD_LIBRARY.test(fileName) || (fileName.includes(TYPES_PACKAGE) && DECLARATION_FILE.test(fileName));
  }

  /** Whether this file's parse was held here (it is dropped: a changed file is read again). */
  forget(path: string): boolean {
    return this.#parsed.delete(path);
  }

  #parse(fileName: string, languageVersionOrOptions: ts.ScriptTarget | ts.CreateSourceFileOptions, readFile: (path: string) => string | undefined): ts.SourceFile | undefined {
    const held = this.#parsed.get(fileName);
    if (held) return held;
    const read = readFile(fileName);
    if (read === undefined) return undefined;
    const text = read.charCodeAt(0) === 0xfeff ? read.slice(1) : read; // a byte order mark, as ts-morph strips it
    const options = typeof languageVersionOrOptions === "object" ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions };
    // No pass to set parent pointers (ts-morph's parse makes one): the checker binds every file of
    // the program before any rule reaches a package's node, and binding sets them.
    const file = ts.createSourceFile(fileName, text, { ...options, jsDocParsingMode: ts.JSDocParsingMode.ParseForTypeErrors }, false);
    this.#parsed.set(fileName, file);
    this.#onParse();
    return file;
  }
}
