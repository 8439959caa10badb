import { ts, type Node, type SourceFile } from "ts-morph";
import { textChangeRange } from "./textChange.js";
import { compilerFactoryOf, hadByteOrderMark, wrapperInternals, type CompilerFactory, type WrapperInternals } from "./tsMorphInternals.js";

/** TypeScript's parser reuses no node carrying these flags (it reads them as "contains a parse error"). */
const NOT_REUSABLE = ts.NodeFlags.ThisNodeOrAnySubNodesHasError | ts.NodeFlags.HasAggregatedChildData;

/** The nodes whose comments ts-morph lists (as comment nodes, with positions) beside their children. */
const COMMENT_CONTAINERS = new Set([
  ts.SyntaxKind.SourceFile,
  ts.SyntaxKind.Block,
  ts.SyntaxKind.ModuleBlock,
  ts.SyntaxKind.CaseClause,
  ts.SyntaxKind.DefaultClause,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.ClassExpression,
  ts.SyntaxKind.TypeLiteral,
  ts.SyntaxKind.ObjectLiteralExpression,
]);

/**
 * Compiler nodes that ts-morph has wrapped at some time. Besides its wrappers, ts-morph keeps lists
 * of a node's tokens, syntax lists and comments, with absolute positions, in module-private maps
 * keyed by the compiler node, which nothing outside ts-morph can reach or clear. TypeScript's
 * incremental parser moves a reused node in place, so such lists would then be stale. ts-morph
 * builds them only through a wrapper of the node or of an ancestor (every ancestor of a wrapped
 * node is wrapped), and the analyzer never asks a wrapper for the token lists of descendants it
 * does not wrap (`getDescendantsOfKind` or `getFirstDescendantByKind` of a token kind,
 * `isInStringAtPos`: a test holds it to that), so a node no wrapper ever held has none. A node in
 * here moves only while its wrapper shows it holds no such list.
 */
const touched = new WeakSet<ts.Node>();

/**
 * Puts `text` into `file` the way TypeScript's language service updates an edited file: only the
 * changed region is parsed again, the nodes around it are reused (less parse work, less garbage),
 * and only the ts-morph wrappers of nodes that leave the tree (or that cannot safely move) are
 * forgotten, instead of every wrapper of the file. The old tree is consumed: its nodes are moved or
 * reused in place, so whoever held it must have let go first. Returns false, having changed
 * nothing, when this cannot be done safely (ts-morph internals not as expected, a byte-order mark,
 * another script kind, an empty file); the caller then parses the text whole.
 */
export function reparseIncrementally(file: SourceFile, text: string): boolean {
  const factory = compilerFactoryOf(file);
  const wrapper = wrapperInternals(file);
  const old = file.compilerNode;
  if (!factory || !wrapper || !updatable(file, old, text)) return false;
  const change = textChangeRange(old.text, text);
  const keptEnd = untouchedEnd(old, change.span.start);
  const movable = keepFromMoving(factory, old, keptEnd, ts.textSpanEnd(change.span));
  const kept = forgetWrappersFromChange(wrapper, old, keptEnd, movable);
  const tree = updatedTree(old, text, change, file.getScriptKind());
  factory.replaceCompilerNode(file, tree);
  // A statement before the change that the parser parsed again instead of reusing (rare).
  for (const statement of kept) if (statement.compilerNode.parent !== tree) forgetOutside(statement, tree);
  for (const node of movable) settleMoved(factory, node, tree);
  // The registry's copy is an older tree, no longer used: not kept alive.
  factory.documentRegistry.removeSourceFile(file.getFilePath());
  return true;
}

function updatable(file: SourceFile, old: ts.SourceFile, text: string): boolean {
  if (hadByteOrderMark(file) || text.charCodeAt(0) === 0xfeff) return false;
  if (old.statements.length === 0 || old.text === text) return false;
  // What a whole parse of the path would give (TypeScript's own rule, not in its public typings).
  const kindOfPath = (ts as unknown as { ensureScriptKind?: (fileName: string, kind: undefined) => ts.ScriptKind }).ensureScriptKind;
  return kindOfPath !== undefined && file.getScriptKind() === kindOfPath(old.fileName, undefined);
}

/**
 * As the language service's own update, but the tree keeps `text` itself (the language service
 * would rebuild it from pieces of the old text: a second copy). ts-morph reads a tree's `version`.
 */
function updatedTree(old: ts.SourceFile, text: string, change: ts.TextChangeRange, kind: ts.ScriptKind): ts.SourceFile {
  const version = String((Number.parseInt((old as { version?: string }).version ?? "0", 10) || 0) + 1);
  let tree: ts.SourceFile;
  try {
    tree = ts.updateSourceFile(old, text, change);
  } catch {
    // The parser gave up (deep nesting) with the old tree half moved: a fresh tree, nothing reused.
    return ts.createLanguageServiceSourceFile(old.fileName, ts.ScriptSnapshot.fromString(text), old.languageVersion, version, true, kind);
  }
  (tree as { version?: string }).version = version;
  return tree;
}

/**
 * Records which nodes ts-morph has wrapped in the statements whose wrappers may be forgotten, marks
 * those that would move (they start after the change) not reusable unless ts-morph holds nothing
 * positional for them, and returns the wrapped nodes that may move with their wrappers.
 */
function keepFromMoving(factory: CompilerFactory, root: ts.SourceFile, keptEnd: number, changeEnd: number): Set<ts.Node> {
  const candidates: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    const wrapped = factory.getExistingNodeFromCompilerNode(node);
    if (wrapped) touched.add(node);
    if (node.pos > changeEnd && touched.has(node)) {
      const internals = wrapped && wrapperInternals(wrapped);
      if (internals && holdsNoPositions(internals, node, root.text)) candidates.push(node);
      else notReusable(node);
    }
    ts.forEachChild(node, visit);
    for (const doc of (node as { jsDoc?: ts.Node[] }).jsDoc ?? []) visit(doc);
  };
  for (const statement of root.statements) if (statement.end > keptEnd) visit(statement);
  visit(root.endOfFileToken);
  // A candidate with a descendant that cannot move is not reused either (the parser reuses whole nodes).
  return new Set(candidates.filter((node) => (node.flags & NOT_REUSABLE) !== NOT_REUSABLE));
}

/**
 * Whether ts-morph's lists for `node` hold only its parse-tree children (which move with it): no
 * token list (it lists tokens and syntax lists among the children), and for a container no
 * comment, judged from its text (asking a container for its children makes ts-morph list them).
 */
function holdsNoPositions(wrapper: WrapperInternals, node: ts.Node, text: string): boolean {
  if (COMMENT_CONTAINERS.has(node.kind)) {
    const own = text.slice(node.pos, node.end);
    if (own.includes("//") || own.includes("/*")) return false;
  }
  const children = new Set<ts.Node>();
  ts.forEachChild(
    node,
    (child) => void children.add(child),
    (list) => list.forEach((child) => children.add(child)),
  );
  return wrapper._getCompilerChildrenFast().every((child) => children.has(child));
}

/** The parser reuses a whole node or nothing, so the node's ancestors are marked too. */
function notReusable(node: ts.Node): void {
  for (let current: ts.Node | undefined = node; current && !ts.isSourceFile(current); current = current.parent) {
    const flags = (current as { flags: number }).flags;
    if ((flags & NOT_REUSABLE) === NOT_REUSABLE) return;
    (current as { flags: number }).flags = flags | NOT_REUSABLE;
  }
}

/**
 * Forgets, while the old tree is still whole, the wrappers of the top-level statements near or
 * after the change, but for those of `movable` nodes, and of the file's own syntax list and
 * comments (the new tree has its own). Returns the wrapped statements kept: those the parser
 * leaves untouched.
 */
function forgetWrappersFromChange(file: WrapperInternals, old: ts.SourceFile, keptEnd: number, movable: Set<ts.Node>): (Node & WrapperInternals)[] {
  const kept: (Node & WrapperInternals)[] = [];
  const keepOrForget = (node: Node & WrapperInternals): void => {
    const compilerNode = node.compilerNode;
    if (compilerNode.end <= keptEnd && compilerNode.parent === old && old.statements.includes(compilerNode as ts.Statement)) kept.push(node);
    else forgetUnlessMovable(node, movable);
  };
  for (const child of [...file._getChildrenInCacheIterator()]) {
    const list = child.getKind() === ts.SyntaxKind.SyntaxList ? wrapperInternals(child) : undefined;
    if (!list) {
      keepOrForget(child);
      continue;
    }
    for (const item of [...list._getChildrenInCacheIterator()]) keepOrForget(item);
    list._forgetOnlyThis();
  }
  return kept;
}

/** ts-morph's `forget()` (children first), leaving the wrappers of movable nodes (and so of their descendants). */
function forgetUnlessMovable(node: Node & WrapperInternals, movable: Set<ts.Node>): void {
  if (movable.has(node.compilerNode)) return;
  for (const child of [...node._getChildrenInCacheIterator()]) forgetUnlessMovable(child, movable);
  node._forgetOnlyThis();
}

/** A movable node's wrapper: cleared of what it derived from the old positions if the node is in the new tree, else forgotten. */
function settleMoved(factory: CompilerFactory, node: ts.Node, tree: ts.SourceFile): void {
  const wrapper = factory.getExistingNodeFromCompilerNode(node);
  const internals = wrapper && wrapperInternals(wrapper);
  if (!wrapper || !internals) return;
  if (root(node) === tree) {
    internals._replaceCompilerNodeFromFactory(node);
    return;
  }
  // Its parent's wrapper is gone already: not looked up (ts-morph's own forget would make a new one).
  factory.removeNodeFromCache(wrapper);
  internals._replaceCompilerNodeFromFactory(undefined);
}

/**
 * Where the statements the incremental parser cannot touch end. It widens the change back over two
 * nodes starting before it, which lie at most in the statement before the one holding the change;
 * statements ending before the one before that are safe. 0 (keep nothing) when a statement there
 * is empty (a parse error), where that reasoning does not hold.
 */
function untouchedEnd(old: ts.SourceFile, changeStart: number): number {
  const statements = old.statements;
  let holding = 0;
  while (holding + 1 < statements.length && statements[holding + 1]!.pos <= changeStart) holding++;
  const first = holding - 4;
  if (first < 0) return 0;
  for (let i = first; i <= holding; i++) if (statements[i]!.end <= statements[i]!.pos) return 0;
  return statements[first]!.end;
}

/** Forgets the wrappers of `node` and of its wrapped descendants that are not part of `tree` (children first, as ts-morph does). */
function forgetOutside(node: Node & WrapperInternals, tree: ts.SourceFile): void {
  if (root(node.compilerNode) === tree) return;
  for (const child of [...node._getChildrenInCacheIterator()]) forgetOutside(child, tree);
  node._forgetOnlyThis();
}

function root(node: ts.Node): ts.Node {
  let current = node;
  while (current.parent) current = current.parent;
  return current;
}
