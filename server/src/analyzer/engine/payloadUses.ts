import { Node, type BindingName } from "ts-morph";
import { bindingOf, type Binding } from "./bindings.js";
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
 * What the names in `fn` that stand for its first parameter's object or a part of it refer to: the parameter,
 * the names a destructuring parameter binds, and locals initialised from any of them
 * (`const { args } = payload`, `const a = payload.args`).
 */
export function payloadBindings(fn: FunctionLike): Set<Binding> {
  const bindings = new Set<Binding>();
  const parameter = fn.getParameters()[0];
  if (!parameter) return bindings;
  addBindings(parameter.getNameNode(), bindings);
  forEachOwnNode(fn, (node) => {
    if (!Node.isVariableDeclaration(node)) return;
    const initializer = node.getInitializer();
    if (initializer && rootBinding(initializer, bindings) !== undefined) addBindings(node.getNameNode(), bindings);
  });
  return bindings;
}

/**
 * The tracked binding an expression is a property path into (`payload`, `payload.args.x`,
 * `args["x"]`), or undefined.
 */
export function rootBinding(expression: Node, bindings: ReadonlySet<Binding>): Binding | undefined {
  let current = unwrapped(expression);
  while (Node.isPropertyAccessExpression(current) || Node.isElementAccessExpression(current)) current = unwrapped(current.getExpression());
  if (!Node.isIdentifier(current)) return undefined;
  const binding = bindingOf(current);
  return binding !== undefined && bindings.has(binding) ? binding : undefined;
}

function addBindings(name: BindingName, bindings: Set<Binding>): void {
  if (Node.isIdentifier(name)) {
    const binding = bindingOf(name);
    if (binding) bindings.add(binding);
    return;
  }
  for (const element of name.getElements()) {
    if (!Node.isOmittedExpression(element)) addBindings(element.getNameNode(), bindings);
  }
}
