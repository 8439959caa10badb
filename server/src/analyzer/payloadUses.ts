import { Node, type BindingName, type ts } from "ts-morph";
import { unwrapped } from "./expressions.js";
import type { FunctionLike } from "./functions.js";

/** Calls `visit` for every node of `fn`'s own body, skipping nested functions and classes (their code runs elsewhere). */
export function forEachOwnNode(fn: FunctionLike, visit: (node: Node) => void): void {
  fn.getBody()?.forEachDescendant((node, traversal) => {
    if (Node.isFunctionLikeDeclaration(node) || Node.isClassDeclaration(node) || Node.isClassExpression(node)) return traversal.skip();
    visit(node);
  });
}

/**
 * The symbols in `fn` that stand for its first parameter's object or a part of it: the parameter,
 * the names a destructuring parameter binds, and locals initialised from any of them
 * (`const { args } = payload`, `const a = payload.args`).
 */
export function payloadSymbols(fn: FunctionLike): Set<ts.Symbol> {
  const symbols = new Set<ts.Symbol>();
  const parameter = fn.getParameters()[0];
  if (!parameter) return symbols;
  addBindings(parameter.getNameNode(), symbols);
  forEachOwnNode(fn, (node) => {
    if (!Node.isVariableDeclaration(node)) return;
    const initializer = node.getInitializer();
    if (initializer && rootSymbol(initializer, symbols) !== undefined) addBindings(node.getNameNode(), symbols);
  });
  return symbols;
}

/**
 * The tracked symbol an expression is a property path into (`payload`, `payload.args.x`,
 * `args["x"]`), or undefined. Compiler symbols are compared, as ts-morph wraps them anew.
 */
export function rootSymbol(expression: Node, symbols: ReadonlySet<ts.Symbol>): ts.Symbol | undefined {
  let current = unwrapped(expression);
  while (Node.isPropertyAccessExpression(current) || Node.isElementAccessExpression(current)) current = unwrapped(current.getExpression());
  if (!Node.isIdentifier(current)) return undefined;
  const symbol = current.getSymbol()?.compilerSymbol;
  return symbol !== undefined && symbols.has(symbol) ? symbol : undefined;
}

function addBindings(name: BindingName, symbols: Set<ts.Symbol>): void {
  if (Node.isIdentifier(name)) {
    const symbol = name.getSymbol()?.compilerSymbol;
    if (symbol) symbols.add(symbol);
    return;
  }
  for (const element of name.getElements()) {
    if (!Node.isOmittedExpression(element)) addBindings(element.getNameNode(), symbols);
  }
}
