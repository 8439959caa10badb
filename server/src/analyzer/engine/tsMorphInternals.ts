import type { Node, Project, SourceFile, ts } from "ts-morph";

/**
 * The few ts-morph internals the analyzer relies on, typed for what they do. They are not public
 * API: each accessor returns undefined when ts-morph's shape differs, and callers then take the
 * public (slower or more conservative) path.
 */

/** ts-morph's compiler factory: which compiler nodes have wrappers, and swapping a file's tree. */
export interface CompilerFactory {
  hasCompilerNode(node: ts.Node): boolean;
  getExistingNodeFromCompilerNode(node: ts.Node): Node | undefined;
  /** Drops a wrapper from the cache (nothing else: no parent is looked up). */
  removeNodeFromCache(node: Node): void;
  /** Points the file's wrapper at `tree` (and so resets the program). */
  replaceCompilerNode(file: SourceFile, tree: ts.SourceFile): void;
  documentRegistry: { removeSourceFile(filePath: string): void };
}

/** A ts-morph wrapper's own bookkeeping, as ts-morph's `forget()` uses it. */
export interface WrapperInternals {
  /** The wrapped children (and the syntax lists), from the children lists ts-morph has cached. */
  _getChildrenInCacheIterator(): Iterable<Node & WrapperInternals>;
  /** Drops this wrapper alone from the factory's cache and clears it. */
  _forgetOnlyThis(): void;
  /** The node's children as ts-morph lists them: its cached token list if it made one, else the parse tree's children (with comments, for containers). */
  _getCompilerChildrenFast(): ts.Node[];
  /** Points the wrapper at `node` and clears what it derived from the old one (comment ranges); undefined makes it forgotten. */
  _replaceCompilerNodeFromFactory(node: ts.Node | undefined): void;
}

export function compilerFactoryOf(file: SourceFile): CompilerFactory | undefined {
  const factory = (file as unknown as { _context?: { compilerFactory?: Partial<CompilerFactory> } })._context?.compilerFactory;
  if (!factory || typeof factory.hasCompilerNode !== "function" || typeof factory.replaceCompilerNode !== "function") return undefined;
  if (typeof factory.getExistingNodeFromCompilerNode !== "function" || typeof factory.removeNodeFromCache !== "function") return undefined;
  if (typeof factory.documentRegistry?.removeSourceFile !== "function") return undefined;
  return factory as CompilerFactory;
}

export function wrapperInternals(node: Node): (Node & WrapperInternals) | undefined {
  const candidate = node as Node & Partial<WrapperInternals>;
  const complete =
    typeof candidate._getChildrenInCacheIterator === "function" &&
    typeof candidate._forgetOnlyThis === "function" &&
    typeof candidate._getCompilerChildrenFast === "function" &&
    typeof candidate._replaceCompilerNodeFromFactory === "function";
  return complete ? (candidate as Node & WrapperInternals) : undefined;
}

/** Whether ts-morph stripped a byte-order mark from the file's text (its tree then lacks it). */
export function hadByteOrderMark(file: SourceFile): boolean {
  return (file as unknown as { _hasBom?: boolean })._hasBom === true;
}

/**
 * Lets `pick` choose a program's root names each time ts-morph resets its program (it passes
 * every file it holds, including those the last program merely loaded). False when ts-morph's
 * program wrapper is not as expected; its own root names are then used.
 */
export function chooseProgramRoots(project: Project, pick: (names: string[]) => string[]): boolean {
  const program = project.getProgram() as unknown as { _reset?: (rootNames: string[], host: unknown) => void };
  const reset = program._reset;
  if (typeof reset !== "function" || reset.length !== 2) return false;
  program._reset = (rootNames, host) => reset.call(program, pick(rootNames), host);
  return true;
}

/**
 * Makes ts-morph build its next program afresh (with the roots `chooseProgramRoots` picks then),
 * as it does when a file is added or changed. False when its internals differ.
 */
export function resetProgram(project: Project): boolean {
  const context = (project as unknown as { _context?: { resetProgram?: () => void } })._context;
  if (typeof context?.resetProgram !== "function") return false;
  context.resetProgram();
  return true;
}

/** Whether ts-morph holds a program built since the last change; undefined when its internals differ. */
export function programBuilt(project: Project): boolean | undefined {
  const program = project.getProgram() as unknown as { _isCompilerProgramCreated?: () => boolean };
  return typeof program._isCompilerProgramCreated === "function" ? program._isCompilerProgramCreated() : undefined;
}

/**
 * How much of the previous program TypeScript reused for the program ts-morph holds: 0 none
 * (rebuilt whole), 1 the modules, 2 everything. Undefined when no program was built since the
 * last change, or when the internals differ.
 */
export function programStructureReuse(project: Project): number | undefined {
  if (programBuilt(project) !== true) return undefined;
  const reuse = (project.getProgram().compilerObject as { structureIsReused?: unknown }).structureIsReused;
  return typeof reuse === "number" ? reuse : undefined;
}

/**
 * Calls `changed` whenever ts-morph adds a source file to its cache or removes one (ours, or one a
 * program loaded through its compiler host). False when its compiler factory is not as expected.
 */
export function watchHeldFiles(project: Project, changed: () => void): boolean {
  const factory = (project as unknown as { _context?: { compilerFactory?: Partial<HeldFileEvents> } })._context?.compilerFactory;
  if (typeof factory?.onSourceFileAdded !== "function" || typeof factory.onSourceFileRemoved !== "function") return false;
  factory.onSourceFileAdded(changed);
  factory.onSourceFileRemoved(changed);
  return true;
}

interface HeldFileEvents {
  onSourceFileAdded(subscription: () => void): void;
  onSourceFileRemoved(subscription: () => void): void;
}
