import { HookPoint } from "@hooklens/runtime";
import { Node, type CallExpression, type NewExpression, type ThrowStatement } from "ts-morph";
import { unwrapped } from "../../../engine/expressions.js";
import { functionOf, type FunctionLike } from "../../../engine/functions.js";
import { contextForHandler } from "../../../engine/findingsElsewhere.js";
import { handlersRegisteredAt } from "../hookRegistrations.js";
import { forEachOwnNode } from "../../../engine/payloadUses.js";
import type { Fix } from "../../../engine/types.js";
import type { Rule, RuleContext } from "../facts.js";

const EXPLANATION =
  "The HookBus swallows a StopHook (and any subclass of it): the TOOL_PRE handlers registered after this one are skipped, " +
  "the emission is recorded as usual, and act() then invokes the tool. A TOOL_PRE handler blocks a call only by throwing " +
  "another error: act() rejects with it, later handlers do not run and the tool is never invoked. " +
  "To block, throw an Error (or a class of your own that does not extend StopHook).";

/** How deep calls to same-file helpers are followed looking for the throw. */
const HELPER_DEPTH = 3;

export const toolPreStopHook: Rule = {
  code: "HL007",
  name: "tool-pre-stop-hook",
  defaultSeverity: "warning",
  summary: "A StopHook thrown by a TOOL_PRE handler only ends the handler chain; the tool still runs.",
  check(context) {
    for (const { fn, reference } of handlersRegisteredAt(context.sourceFile, HookPoint.TOOL_PRE, context.facts.runtime)) checkHandler(fn, contextForHandler(context, fn, reference));
  },
};

function checkHandler(handler: FunctionLike, context: RuleContext): void {
  forEachBodyNode(handler, (node) => {
    if (Node.isThrowStatement(node) && throwsStopHook(node, context)) {
      context.report({
        start: node.getStart(),
        end: node.getEnd(),
        message: "StopHook thrown in a TOOL_PRE handler only ends the chain; the tool still runs",
        explanation: EXPLANATION,
        fix: errorInstead(node, context),
      });
    } else if (Node.isCallExpression(node)) {
      const helper = helperThatThrows(node, context, new Set([handler]), HELPER_DEPTH);
      if (helper) {
        context.report({
          start: node.getStart(),
          end: node.getEnd(),
          message: "This call throws StopHook in a TOOL_PRE handler: only the chain ends; the tool still runs",
          explanation: `\`${helper}\` throws a StopHook. ${EXPLANATION}`,
        });
      }
    }
  });
}

/** Whether a `throw` throws an instance of the runtime's StopHook (or of a subclass of it). */
function throwsStopHook(statement: ThrowStatement, context: RuleContext): boolean {
  const thrown = statement.getExpression();
  return context.facts.runtime.runtimeClassOf(thrown, ["StopHook"]) !== null;
}

/**
 * The name of the same-file function `call` calls that throws StopHook in its own body (or in a
 * helper it calls in turn, `depth` levels deep); null when there is none.
 */
function helperThatThrows(call: CallExpression, context: RuleContext, seen: Set<FunctionLike>, depth: number): string | null {
  if (depth === 0) return null;
  const callee = call.getExpression();
  if (!Node.isIdentifier(callee)) return null;
  const helper = functionOf(callee);
  if (!helper || seen.has(helper) || helper.getSourceFile() !== call.getSourceFile()) return null;
  seen.add(helper);
  let found = false;
  forEachBodyNode(helper, (node) => {
    if (found) return;
    if (Node.isThrowStatement(node)) found = throwsStopHook(node, context);
    else if (Node.isCallExpression(node)) found = helperThatThrows(node, context, seen, depth - 1) !== null;
  });
  return found ? `${callee.getText()}()` : null;
}

/**
 * `throw new StopHook(message)` → `throw new Error(message)`: certain only for the runtime's own
 * class (a subclass may take other arguments) given exactly one string argument.
 */
function errorInstead(statement: ThrowStatement, context: RuleContext): Fix | undefined {
  const thrown = unwrapped(statement.getExpression());
  if (!Node.isNewExpression(thrown) || !context.facts.runtime.is(thrown.getExpression(), "StopHook")) return undefined;
  if (!hasOneStringArgument(thrown)) return undefined;
  const callee = thrown.getExpression();
  return { title: "Throw an Error to block the tool call", edits: [{ start: callee.getStart(), end: callee.getEnd(), newText: "Error" }] };
}

function hasOneStringArgument(expression: NewExpression): boolean {
  const args = expression.getArguments();
  if (args.length !== 1) return false;
  const type = args[0]!.getType();
  return type.isString() || type.isStringLiteral();
}

/** {@link forEachOwnNode}, plus a concise arrow body itself (`(m) => deny(m)`). */
function forEachBodyNode(fn: FunctionLike, visit: (node: Node) => void): void {
  const body = fn.getBody();
  if (body && !Node.isBlock(body)) visit(body);
  forEachOwnNode(fn, visit);
}
