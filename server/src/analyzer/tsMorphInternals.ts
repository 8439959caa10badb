import type { Node, SourceFile, ts } from "ts-morph";

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
