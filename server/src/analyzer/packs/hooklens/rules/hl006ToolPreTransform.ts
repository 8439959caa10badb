import { HookPoint } from "@hooklens/runtime";
import { Node, type Expression, type Type } from "ts-morph";
import type { Binding } from "../../../engine/bindings.js";
import { isWriteTarget, outermostWrapper, unwrapped } from "../../../engine/expressions.js";
import type { FunctionLike } from "../../../engine/functions.js";
import { contextForHandler } from "../../../engine/findingsElsewhere.js";
import { handlersRegisteredAt } from "../hookRegistrations.js";
import { forEachOwnNode, payloadBindings, rootBinding } from "../../../engine/payloadUses.js";
import type { Rule, RuleContext } from "../facts.js";

const WHY =
  "A TOOL_PRE handler can block the call by throwing an Error, but the HookBus ignores what it returns, and its payload " +
  "({ toolName, callId, argsSummary }) is a summary made for this emission, not the tool's arguments. " +
  "To change the arguments, use an AgentSpec pre hook (`spec.pre(toolName, fn)` returning the new argument object) or the Tool's preprocessor.";

const RETURNED_STOP_HOOK: Ignored = { what: "returns a StopHook", detail: "returns a StopHook" };

/** A returned StopHook hints at wanting to block; the way to block is an Error, since a thrown StopHook does not block either. */
const STOP_HOOK_WHY =
  "The HookBus ignores what a TOOL_PRE handler returns, so the tool still runs. To block the call, throw an Error " +
  "(a PermissionError, for example): the first Error a TOOL_PRE handler throws rejects the call before the tool runs. " +
  "Do not throw the StopHook instead: a thrown StopHook only ends the remaining handlers on this point, and the tool still runs.";

/** Global helpers that obviously write into their first argument. */
const MUTATING_OBJECT_METHODS = ["assign", "defineProperty", "defineProperties"];

export const toolPreTransform: Rule = {
  code: "HL006",
  name: "tool-pre-transform",
  defaultSeverity: "warning",
  summary: "A TOOL_PRE handler's return value and payload changes never reach the tool; it can only block by throwing.",
  check(context) {
    for (const { fn, reference } of handlersRegisteredAt(context.sourceFile, HookPoint.TOOL_PRE, context.facts.runtime)) checkHandler(fn, contextForHandler(context, fn, reference));
  },
};

/** What a handler does that the runtime drops: a short phrase for the headline, and the detail for the explanation. */
interface Ignored {
  what: string;
  detail: string;
}

function checkHandler(handler: FunctionLike, context: RuleContext): void {
  const payload = payloadBindings(handler);
  const report = (node: Node, { what, detail }: Ignored) =>
    context.report(
      what === RETURNED_STOP_HOOK.what
        ? { start: node.getStart(), end: node.getEnd(), message: "Returned StopHook is ignored: this TOOL_PRE handler does not block the tool", explanation: STOP_HOOK_WHY }
        : { start: node.getStart(), end: node.getEnd(), message: `TOOL_PRE handler ${what}: this never reaches the tool`, explanation: `This handler ${detail}, which never reaches the tool. ${WHY}` },
    );

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
      if (rootBinding(node, payload)) report(writeExpression(node), { what: "changes its payload", detail: `changes its payload (\`${node.getText()}\`)` });
    } else if (Node.isDeleteExpression(node) && rootBinding(node.getExpression(), payload)) {
      report(node, { what: "deletes from its payload", detail: `deletes from its payload (\`${node.getExpression().getText()}\`)` });
    } else if (Node.isCallExpression(node) && isObjectMutation(node.getExpression())) {
      const [target] = node.getArguments();
      if (target && rootBinding(target, payload)) report(node, { what: "changes its payload", detail: `changes its payload with \`${node.getExpression().getText()}\`` });
    }
  });
}

/** What a returned value is, in words, when the runtime ignores it; null for nothing worth saying (undefined, null, a thenable it awaits). */
function describeReturn(value: Expression, payload: ReadonlySet<Binding>, context: RuleContext): Ignored | null {
  const inner = unwrapped(value);
  if (Node.isVoidExpression(inner) || (Node.isIdentifier(inner) && inner.getText() === "undefined")) return null;
  if (Node.isNewExpression(inner) && context.facts.runtime.is(inner.getExpression(), "StopHook")) return RETURNED_STOP_HOOK;
  if (rootBinding(inner, payload)) return { what: "returns its payload", detail: `returns its payload (\`${inner.getText()}\`)` };
  if (Node.isObjectLiteralExpression(inner)) return { what: "returns an object", detail: "returns an object" };
  const type = inner.getType();
  if (type.isAny() || type.isUnknown() || (type.isUnion() ? type.getUnionTypes() : [type]).every(isIgnorable)) return null;
  return { what: "returns a value", detail: "returns a value" };
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
