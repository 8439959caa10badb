import { Node, SyntaxKind, VariableDeclarationKind, type ts } from "ts-morph";

/** Wrappers a value passes through unchanged: `(x)`, `x!`, `x as T`, `x satisfies T`, `<T>x`. */
const TRANSPARENT_KINDS: ReadonlySet<SyntaxKind> = new Set([
  SyntaxKind.ParenthesizedExpression,
  SyntaxKind.NonNullExpression,
  SyntaxKind.AsExpression,
  SyntaxKind.SatisfiesExpression,
  SyntaxKind.TypeAssertionExpression,
]);

function isTransparent(node: Node): node is Node & { getExpression(): Node } {
  return TRANSPARENT_KINDS.has(node.getKind());
}

/** {@link unwrapped} on a compiler node (nothing is wrapped in ts-morph). */
export function unwrappedNode(node: ts.Node): ts.Node {
  let current = node;
  while (TRANSPARENT_KINDS.has(current.kind)) current = (current as ts.ParenthesizedExpression).expression;
  return current;
}

/** The largest expression around `node` that still denotes the same value. */
export function outermostWrapper(node: Node): Node {
  let current = node;
  for (let parent = current.getParent(); parent && isTransparent(parent); parent = current.getParent()) current = parent;
  return current;
}

/** The value expression inside any transparent wrappers. */
export function unwrapped(node: Node): Node {
  let current = node;
  while (isTransparent(current)) current = current.getExpression();
  return current;
}

/** Whether `node` is written to: the target of `=`, `+=`, … or of `++`/`--`. */
export function isWriteTarget(node: Node): boolean {
  const outer = outermostWrapper(node);
  const parent = outer.getParent();
  if (Node.isBinaryExpression(parent)) {
    const operator = parent.getOperatorToken().getText();
    return parent.getLeft() === outer && operator.endsWith("=") && !["==", "===", "!=", "!==", "<=", ">="].includes(operator);
  }
  if (!Node.isPrefixUnaryExpression(parent) && !Node.isPostfixUnaryExpression(parent)) return false;
  const operator = parent.getOperatorToken();
  return operator === SyntaxKind.PlusPlusToken || operator === SyntaxKind.MinusMinusToken;
}

/**
 * What a `const` stands for: follows an identifier (through imports and re-exports) to the
 * initializer of the `const` it names, a few hops at most, and returns that value unwrapped.
 * Anything else (a `let`, a parameter, a destructured name) is returned as it is.
 */
export function constValue(node: Node): Node {
  let current = unwrapped(node);
  for (let hops = 0; hops < 8 && Node.isIdentifier(current); hops++) {
    const symbol = current.getSymbol();
    const target = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
    const declaration = target?.getDeclarations()[0];
    if (!declaration || !Node.isVariableDeclaration(declaration) || !Node.isIdentifier(declaration.getNameNode())) break;
    if (declaration.getVariableStatement()?.getDeclarationKind() !== VariableDeclarationKind.Const) break;
    const initializer = declaration.getInitializer();
    if (!initializer) break;
    current = unwrapped(initializer);
  }
  return current;
}
