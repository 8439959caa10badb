import { Node, SyntaxKind } from "ts-morph";
import { isWriteTarget, unwrapped } from "./expressions.js";
import type { FunctionLike } from "./functions.js";

/** Methods that change the collection they are called on. */
const MUTATING_METHODS = new Set(["push", "unshift", "splice", "pop", "shift", "set", "add", "delete", "clear", "sort", "reverse", "fill", "copyWithin"]);
/** Logger methods, counted when the receiver reads as a logger (`console`, `logger`, `this.log`, `getLogger()`). */
const LOG_METHODS = new Set(["log", "info", "warn", "error", "debug", "trace", "fatal"]);
/** Calls that write or send somewhere outside the process's memory. */
const IO_CALLS = new Set(["fetch", "write", "writeSync", "writeFile", "writeFileSync", "appendFile", "appendFileSync", "send"]);

/**
 * The first thing in `fn`'s own body (nested functions and classes excluded: they run elsewhere)
 * whose effect outlives the call: a write, `++`/`--` or `delete` on `this.*` or on a variable
 * declared outside `fn`, a mutating method (`push`, `set`, `add`, …) on such a value, a logger
 * call, or an I/O call (`fetch`, `write`, `writeFile`, `send`, …). Null when there is none it can see.
 */
export function sideEffectOf(fn: FunctionLike): Node | null {
  const body = fn.getBody();
  if (!body) return null;
  if (isSideEffect(body, fn)) return body;
  let found: Node | null = null;
  body.forEachDescendant((node, traversal) => {
    if (Node.isFunctionLikeDeclaration(node) || Node.isClassDeclaration(node) || Node.isClassExpression(node)) return traversal.skip();
    if (!isSideEffect(node, fn)) return;
    found = node;
    traversal.stop();
  });
  return found;
}

function isSideEffect(node: Node, fn: FunctionLike): boolean {
  if (Node.isBinaryExpression(node)) return isWriteTarget(node.getLeft()) && outlivesCall(node.getLeft(), fn);
  if (Node.isPrefixUnaryExpression(node) || Node.isPostfixUnaryExpression(node)) return isWriteTarget(node.getOperand()) && outlivesCall(node.getOperand(), fn);
  if (Node.isDeleteExpression(node)) return outlivesCall(node.getExpression(), fn);
  if (!Node.isCallExpression(node)) return false;
  const callee = unwrapped(node.getExpression());
  if (Node.isIdentifier(callee)) return IO_CALLS.has(callee.getText());
  if (!Node.isPropertyAccessExpression(callee)) return false;
  const method = callee.getName();
  const receiver = callee.getExpression();
  if (MUTATING_METHODS.has(method) && outlivesCall(receiver, fn)) return true;
  if (LOG_METHODS.has(method) && readsAsLogger(receiver)) return true;
  return IO_CALLS.has(method);
}

/** Whether a value path (`this.a.b`, `counts[k]`, `total`) is rooted in `this` or in a variable declared outside `fn`. */
function outlivesCall(target: Node, fn: FunctionLike): boolean {
  let root = unwrapped(target);
  while (Node.isPropertyAccessExpression(root) || Node.isElementAccessExpression(root)) root = unwrapped(root.getExpression());
  if (root.getKind() === SyntaxKind.ThisKeyword) return true;
  if (!Node.isIdentifier(root)) return false;
  const declarations = root.getSymbol()?.getDeclarations() ?? [];
  // An undeclared name is a global; a declared one counts when it lives outside this function.
  return declarations.length === 0 || declarations.some((d) => !d.getAncestors().includes(fn));
}

/** `console`, `logger`, `this.log`, `getLogger()`: a receiver whose name says it logs. */
function readsAsLogger(receiver: Node): boolean {
  const inner = unwrapped(receiver);
  const named = Node.isCallExpression(inner) ? unwrapped(inner.getExpression()) : inner;
  const name = Node.isIdentifier(named) ? named.getText() : Node.isPropertyAccessExpression(named) ? named.getName() : "";
  return /^console$|log/i.test(name);
}
