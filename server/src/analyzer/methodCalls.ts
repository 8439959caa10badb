import { Node, type CallExpression, type Identifier } from "ts-morph";
import type { RuleContext } from "./types.js";

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
  context.sourceFile.forEachDescendant((node) => {
    if (!Node.isCallExpression(node)) return;
    const callee = node.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== method) return;
    const runtimeClass = context.runtime.runtimeClassOf(callee.getExpression(), classes);
    if (runtimeClass) visit(node, runtimeClass, callee.getNameNode());
  });
}
