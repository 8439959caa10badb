import { HookPoint } from "@hooklens/runtime";
import { Node, type Expression, type Type, type ts } from "ts-morph";
import { isWriteTarget, outermostWrapper, unwrapped } from "../expressions.js";
import type { FunctionLike } from "../functions.js";
import { handlersRegisteredAt } from "../hookRegistrations.js";
import { forEachOwnNode, payloadSymbols, rootSymbol } from "../payloadUses.js";
import type { Rule, RuleContext } from "../types.js";

const WHY =
  "A TOOL_PRE handler can block the call by throwing, but the HookBus ignores what it returns, and its payload " +
  "({ toolName, callId, argsSummary }) is a summary made for this emission, not the tool's arguments. " +
  "To change the arguments, use an AgentSpec pre hook (`spec.pre(toolName, fn)` returning the new argument object) or the Tool's preprocessor.";

/** Global helpers that obviously write into their first argument. */
const MUTATING_OBJECT_METHODS = ["assign", "defineProperty", "defineProperties"];

export const toolPreTransform: Rule = {
  code: "HL006",
  name: "tool-pre-transform",
  defaultSeverity: "warning",
  summary: "A TOOL_PRE handler's return value and payload changes never reach the tool; it can only block by throwing.",
  check(context) {
    for (const handler of handlersRegisteredAt(context.sourceFile, HookPoint.TOOL_PRE, context.runtime)) checkHandler(handler, context);
  },
};

function checkHandler(handler: FunctionLike, context: RuleContext): void {
  const payload = payloadSymbols(handler);
  const report = (node: Node, what: string) =>
    context.report({ start: node.getStart(), end: node.getEnd(), message: `This TOOL_PRE handler ${what}, which never reaches the tool. ${WHY}` });

  const body = handler.getBody();
  if (body && !Node.isBlock(body) && !isStatementLike(unwrapped(body))) {
    const what = describeReturn(body as Expression, payload, context);
    if (what) report(body, what);
  }
  forEachOwnNode(handler, (node) => {
    if (Node.isReturnStatement(node)) {
      const value = node.getExpression();
      const what = value && describeReturn(value, payload, context);
      if (what) report(node, what);
    } else if ((Node.isPropertyAccessExpression(node) || Node.isElementAccessExpression(node)) && isWriteTarget(node)) {
      if (rootSymbol(node, payload)) report(writeExpression(node), `changes its payload (\`${node.getText()}\`)`);
    } else if (Node.isDeleteExpression(node) && rootSymbol(node.getExpression(), payload)) {
      report(node, `deletes from its payload (\`${node.getExpression().getText()}\`)`);
    } else if (Node.isCallExpression(node) && isObjectMutation(node.getExpression())) {
      const [target] = node.getArguments();
      if (target && rootSymbol(target, payload)) report(node, `changes its payload with \`${node.getExpression().getText()}\``);
    }
  });
}

/** What a returned value is, in words, when the runtime ignores it; null for nothing worth saying (undefined, null, a thenable it awaits). */
function describeReturn(value: Expression, payload: ReadonlySet<ts.Symbol>, context: RuleContext): string | null {
  const inner = unwrapped(value);
  if (Node.isVoidExpression(inner) || (Node.isIdentifier(inner) && inner.getText() === "undefined")) return null;
  if (Node.isNewExpression(inner) && context.runtime.is(inner.getExpression(), "StopHook")) {
    return "returns a StopHook instead of throwing it; only a thrown StopHook ends the chain, and a returned one is ignored";
  }
  if (rootSymbol(inner, payload)) return `returns its payload (\`${inner.getText()}\`)`;
  if (Node.isObjectLiteralExpression(inner)) return "returns an object";
  const type = inner.getType();
  if (type.isAny() || type.isUnknown() || (type.isUnion() ? type.getUnionTypes() : [type]).every(isIgnorable)) return null;
  return "returns a value";
}

/** Types whose return means "nothing" or that the bus awaits: void, undefined, null, never, thenables. */
function isIgnorable(type: Type): boolean {
  return type.isUndefined() || type.isNull() || type.isVoid() || type.isNever() || type.getProperty("then") !== undefined;
}

/** Expression bodies that are there for their effect, not their value (`p => log(p)`, `p => (seen = p)`). */
function isStatementLike(body: Node): boolean {
  return (
    Node.isCallExpression(body) ||
    Node.isAwaitExpression(body) ||
    Node.isNewExpression(body) ||
    Node.isDeleteExpression(body) ||
    Node.isVoidExpression(body) ||
    Node.isPrefixUnaryExpression(body) ||
    Node.isPostfixUnaryExpression(body) ||
    (Node.isBinaryExpression(body) && isWriteTarget(body.getLeft()))
  );
}

/** `Object.assign`, `Object.defineProperty`, `Object.defineProperties`. */
function isObjectMutation(callee: Node): boolean {
  return (
    Node.isPropertyAccessExpression(callee) &&
    MUTATING_OBJECT_METHODS.includes(callee.getName()) &&
    Node.isIdentifier(callee.getExpression()) &&
    callee.getExpression().getText() === "Object"
  );
}

/** The assignment or `++`/`--` expression around a written property path (one {@link isWriteTarget} accepted). */
function writeExpression(target: Node): Node {
  return outermostWrapper(target).getParent() ?? target;
}
