import { Node, type SourceFile } from "ts-morph";

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
  const scopes: Scope[] = [sourceFile];
  sourceFile.forEachDescendant((node) => {
    // Overload signatures and abstract methods have no body to run.
    if (Node.isFunctionLikeDeclaration(node) && (!Node.isBodyable(node) || node.hasBody())) scopes.push(node);
  });
  return scopes;
}

/**
 * Whether code in `inner` (a scope nested in another) can only run after its own text was
 * reached: arrows and function expressions are values created where they stand, while function
 * declarations are hoisted and methods, fields and static blocks run whenever something calls them.
 */
export function runsAfterDefinition(inner: Scope): boolean {
  return Node.isArrowFunction(inner) || Node.isFunctionExpression(inner);
}
