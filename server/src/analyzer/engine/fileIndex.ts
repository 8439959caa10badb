import { ts, type KindToNodeMappings, type Node, type SourceFile } from "ts-morph";

/** ts-morph's own (untyped) way to get the wrapper of a compiler node of a file, shared with every other wrapper of the project. */
interface WrapsCompilerNodes {
  _getNodeFromCompilerNode(node: ts.Node): Node;
}

const indexes = new WeakMap<ts.SourceFile, FileIndex>();

/**
 * The nodes of one parsed file that rules start from, collected by a single raw-TypeScript walk
 * and wrapped in ts-morph only when a rule asks for them. Walking a whole file through ts-morph
 * wraps every node (it was most of an analysis's cost, once per rule); here the walk is one
 * `forEachChild` pass and a rule wraps only the few candidates its syntactic filter keeps.
 *
 * Lists keep the order ts-morph's own walks give: pre-order `forEachChild` (what
 * `forEachDescendant` visits) for nodes, and for identifiers the order of
 * `getDescendantsOfKind(SyntaxKind.Identifier)`, which also enters JSDoc comments.
 * One index per parsed version of a file: an edit makes a new tree and so a new index.
 */
export class FileIndex {
  readonly sourceFile: SourceFile;
  readonly #byKind = new Map<ts.SyntaxKind, ts.Node[]>();
  /** Identifiers by their (unescaped) text, JSDoc ones included. */
  readonly #identifiers = new Map<string, ts.Identifier[]>();
  /** `this` expressions and `this` types, in document order. */
  readonly #thisLike: ts.Node[] = [];

  private constructor(sourceFile: SourceFile) {
    this.sourceFile = sourceFile;
    this.#collect(sourceFile.compilerNode);
  }

  /** The index of a file's current tree (built on first use, then cached with that tree). */
  static of(sourceFile: SourceFile): FileIndex {
    let index = indexes.get(sourceFile.compilerNode);
    if (!index) indexes.set(sourceFile.compilerNode, (index = new FileIndex(sourceFile)));
    return index;
  }

  /** Every node of `kind` in the file, in `forEachDescendant` order, as raw compiler nodes (for syntactic filtering). */
  raw<K extends ts.SyntaxKind>(kind: K): readonly KindToNodeMappings[K]["compilerNode"][] {
    return (this.#byKind.get(kind) ?? []) as KindToNodeMappings[K]["compilerNode"][];
  }

  /**
   * The nodes of `kind` that pass `keep` (a test on the compiler node), wrapped, in
   * `forEachDescendant` order; only those strictly inside `within` when given.
   */
  wrapped<K extends ts.SyntaxKind>(
    kind: K,
    keep: (node: KindToNodeMappings[K]["compilerNode"]) => boolean = () => true,
    within?: Node,
  ): KindToNodeMappings[K][] {
    const container = within?.compilerNode === this.sourceFile.compilerNode ? undefined : within?.compilerNode;
    const found: KindToNodeMappings[K][] = [];
    for (const node of this.raw(kind)) {
      if (keep(node) && (container === undefined || isStrictlyInside(node, container))) found.push(this.wrap(node) as KindToNodeMappings[K]);
    }
    return found;
  }

  /**
   * What `getDescendantsOfKind(SyntaxKind.ThisKeyword)` lists inside `within`: `this` expressions,
   * and the keyword token of each `this` type (`m(): this`), which ts-morph reaches through getChildren.
   */
  thisKeywords(within: Node): Node[] {
    const container = within.compilerNode === this.sourceFile.compilerNode ? undefined : within.compilerNode;
    const found: Node[] = [];
    for (const node of this.#thisLike) {
      if (container !== undefined && !isStrictlyInside(node, container)) continue;
      const keyword = node.kind === ts.SyntaxKind.ThisType ? node.getChildren(this.sourceFile.compilerNode).find((c) => c.kind === ts.SyntaxKind.ThisKeyword) : node;
      if (keyword) found.push(this.wrap(keyword));
    }
    return found;
  }

  /**
   * The identifiers whose text is `text` (escapes resolved), in `getDescendantsOfKind` order,
   * JSDoc ones included; only those strictly inside `within` when given.
   */
  identifiers(text: string, within?: Node): Node[] {
    const all = this.#identifiers.get(text) ?? [];
    const container = within?.compilerNode;
    const inside = container === undefined || container === this.sourceFile.compilerNode ? all : all.filter((id) => isStrictlyInside(id, container));
    return inside.map((id) => this.wrap(id));
  }

  /** The identifiers whose text is `text` (escapes resolved), JSDoc ones included, as raw compiler nodes. */
  rawIdentifiers(text: string): readonly ts.Identifier[] {
    return this.#identifiers.get(text) ?? [];
  }

  /** The ts-morph wrapper of a compiler node of this file (the same object every other ts-morph call returns). */
  wrap(node: ts.Node): Node {
    return (this.sourceFile as unknown as WrapsCompilerNodes)._getNodeFromCompilerNode(node);
  }

  #collect(root: ts.SourceFile): void {
    const visit = (node: ts.Node): void => {
      let list = this.#byKind.get(node.kind);
      if (!list) this.#byKind.set(node.kind, (list = []));
      list.push(node);
      if (ts.isIdentifier(node)) this.#addIdentifier(node);
      else if (node.kind === ts.SyntaxKind.ThisKeyword || node.kind === ts.SyntaxKind.ThisType) this.#thisLike.push(node);
      // getDescendantsOfKind(Identifier) goes through getChildren, which lists a node's JSDoc first.
      const jsDoc = (node as { jsDoc?: readonly ts.Node[] }).jsDoc;
      if (jsDoc) for (const comment of jsDoc) this.#collectJsDocIdentifiers(comment);
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(root, visit);
  }

  #collectJsDocIdentifiers(node: ts.Node): void {
    if (ts.isIdentifier(node)) this.#addIdentifier(node);
    ts.forEachChild(node, (child) => this.#collectJsDocIdentifiers(child));
  }

  #addIdentifier(identifier: ts.Identifier): void {
    const list = this.#identifiers.get(identifier.text);
    if (list) list.push(identifier);
    else this.#identifiers.set(identifier.text, [identifier]);
  }
}

function isStrictlyInside(node: ts.Node, container: ts.Node): boolean {
  for (let current = node.parent; current; current = current.parent) if (current === container) return true;
  return false;
}
