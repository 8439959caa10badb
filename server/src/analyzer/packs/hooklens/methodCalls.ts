import { Node, SyntaxKind, ts, type CallExpression, type Identifier } from "ts-morph";
import { FileIndex } from "../../engine/fileIndex.js";
import type { RuleContext } from "./facts.js";

/** The runtime classes that hold agent tool hooks (`pre`, `post`, `onError`). */
export const TOOL_HOOK_HOLDERS = ["AgentSpec", "HooksMixin", "CodingToolkit"] as const;

/**
 * Calls `visit` for every `receiver.<method>(…)` in the file whose receiver is an instance of one
 * of the runtime `classes` (user subclasses included), with the class it resolved to.
 */
export function forEachRuntimeMethodCall(
  context: RuleContext,
  method: string,
  classes: readonly string[],
  visit: (call: CallExpression, runtimeClass: string, methodName: Identifier) => void,
): void {
  for (const node of FileIndex.of(context.sourceFile).wrapped(SyntaxKind.CallExpression, (call) => isMethodCall(call, method))) {
    const callee = node.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== method) continue;
    const runtimeClass = context.facts.runtime.runtimeClassOf(callee.getExpression(), classes);
    if (runtimeClass) visit(node, runtimeClass, callee.getNameNode());
  }
}

/** Syntactic pre-filter on a compiler node: `receiver.<method>(…)` (escapes in the name resolved, so never too strict). */
export function isMethodCall(call: ts.CallExpression, method: string): boolean {
  return ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === method;
}
