import type { Node, SourceFile, ts } from "ts-morph";

/**
 * The few ts-morph internals the analyzer relies on, typed for what they do. They are not public
 * API: each accessor returns undefined when ts-morph's shape differs, and callers then take the
 * public (slower or more conservative) path.
 */

/** ts-morph's compiler factory: which compiler nodes have wrappers, and swapping a file's tree. */
export interface CompilerFactory {
  hasCompilerNode(node: ts.Node): boolean;
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
}

export function compilerFactoryOf(file: SourceFile): CompilerFactory | undefined {
  const factory = (file as unknown as { _context?: { compilerFactory?: Partial<CompilerFactory> } })._context?.compilerFactory;
  if (!factory || typeof factory.hasCompilerNode !== "function" || typeof factory.replaceCompilerNode !== "function") return undefined;
  if (typeof factory.documentRegistry?.removeSourceFile !== "function") return undefined;
  return factory as CompilerFactory;
}

export function wrapperInternals(node: Node): (Node & WrapperInternals) | undefined {
  const candidate = node as Node & Partial<WrapperInternals>;
  return typeof candidate._getChildrenInCacheIterator === "function" && typeof candidate._forgetOnlyThis === "function" ? (candidate as Node & WrapperInternals) : undefined;
}

/** Whether ts-morph stripped a byte-order mark from the file's text (its tree then lacks it). */
export function hadByteOrderMark(file: SourceFile): boolean {
  return (file as unknown as { _hasBom?: boolean })._hasBom === true;
}
