import { Node, type Expression, type Type } from "ts-morph";
import { isWriteTarget, unwrapped } from "./expressions.js";
import type { FunctionLike } from "./functions.js";
import { forEachOwnNode } from "./payloadUses.js";

/** Where a function gives back a value: a `return x;` of its own body, or a concise arrow's body. */
export interface ReturnSite {
  /** The return statement, or the concise body. */
  site: Node;
  /** The returned expression, transparent wrappers included. */
  value: Expression;
}

/**
 * The values `fn` itself returns (nested functions' returns are theirs). A concise body that is
 * there for its effect (`(e) => log(e)`, `(e) => (seen = e)`) does not count as a returned value.
 */
export function returnSites(fn: FunctionLike): ReturnSite[] {
  const sites: ReturnSite[] = [];
  const body = fn.getBody();
  if (body && !Node.isBlock(body) && !isStatementLike(unwrapped(body))) sites.push({ site: body, value: body as Expression });
  forEachOwnNode(fn, (node) => {
    const value = Node.isReturnStatement(node) ? node.getExpression() : undefined;
    if (value) sites.push({ site: node, value });
  });
  return sites;
}

/** Expression bodies that are there for their effect, not their value. */
function isStatementLike(body: Node): boolean {
  return (
    Node.isCallExpression(body) ||
    Node.isAwaitExpression(body) ||
    Node.isDeleteExpression(body) ||
    Node.isVoidExpression(body) ||
    Node.isPrefixUnaryExpression(body) ||
    Node.isPostfixUnaryExpression(body) ||
    (Node.isBinaryExpression(body) && isWriteTarget(body.getLeft()))
  );
}

/** The type a value settles to: a promise's (or thenable's) resolved type, otherwise the type itself. */
export function settledType(type: Type, at: Node): Type {
  const then = type.getProperty("then");
  if (!then) return type;
  if (type.getSymbol()?.getName() === "Promise" || type.getSymbol()?.getName() === "PromiseLike") return type.getTypeArguments()[0] ?? type;
  // Another thenable: the type of the value its `then` hands to the first callback.
  const onFulfilled = then.getTypeAtLocation(at).getCallSignatures()[0]?.getParameters()[0]?.getTypeAtLocation(at);
  const value = onFulfilled?.getCallSignatures()[0]?.getParameters()[0]?.getTypeAtLocation(at);
  return value ?? type;
}

/** Whether a value of this type is "nothing": undefined, void, null or never (in every part of a union). */
export function isNothing(type: Type): boolean {
  return (type.isUnion() ? type.getUnionTypes() : [type]).every((t) => t.isUndefined() || t.isNull() || t.isVoid() || t.isNever());
}

/** Whether a type is the global `Error` or a class derived from it (user classes included). */
export function isErrorType(type: Type): boolean {
  const pending = [type];
  for (let hops = 0; pending.length > 0 && hops < 32; hops++) {
    const current = pending.shift()!;
    const symbol = current.getSymbol();
    if (symbol?.getName() === "Error" && symbol.getDeclarations().some((d) => d.getSourceFile().isInNodeModules() || d.getSourceFile().isDeclarationFile())) return true;
    if (current.isClassOrInterface() || current.isObject()) pending.push(...current.getBaseTypes());
  }
  return false;
}
