import { Node, SyntaxKind, type SourceFile } from "ts-morph";
import { FileIndex } from "./fileIndex.js";

/** A straight-line body: a file's top level, or the body of one function, method or accessor. */
export type Scope = Node;

/**
 * The code unit a node runs in: the innermost function-like declaration, class field initializer
 * or static block around it, or the file. Code in a different unit may run at another time.
 */
export function scopeOf(node: Node): Scope {
  return (
    node.getFirstAncestor((a) => Node.isFunctionLikeDeclaration(a) || Node.isPropertyDeclaration(a) || Node.isClassStaticBlockDeclaration(a)) ??
    node.getSourceFile()
  );
}

/** Every scope with statements of its own: the file, then each function-like with a body. */
export function scopesIn(sourceFile: SourceFile): Scope[] {
  const index = FileIndex.of(sourceFile);
  const functions = FUNCTION_LIKE_KINDS.flatMap((kind) => index.raw(kind));
  // One pre-order list: a function starts before the functions nested in it, and two never start at the same place.
  functions.sort((a, b) => a.pos - b.pos || b.end - a.end);
  const scopes: Scope[] = [sourceFile];
  for (const raw of functions) {
    const node = index.wrap(raw);
    // Overload signatures and abstract methods have no body to run.
    if (Node.isFunctionLikeDeclaration(node) && (!Node.isBodyable(node) || node.hasBody())) scopes.push(node);
  }
  return scopes;
}

/** The kinds `Node.isFunctionLikeDeclaration` accepts. */
const FUNCTION_LIKE_KINDS = [
  SyntaxKind.ArrowFunction,
  SyntaxKind.Constructor,
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.GetAccessor,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.SetAccessor,
] as const;

/**
 * Whether code in `inner` (a scope nested in another) can only run after its own text was
 * reached: arrows and function expressions are values created where they stand, while function
 * declarations are hoisted and methods, fields and static blocks run whenever something calls them.
 */
export function runsAfterDefinition(inner: Scope): boolean {
  return Node.isArrowFunction(inner) || Node.isFunctionExpression(inner);
}
