import { HookPoint } from "@hooklens/runtime";
import { Node, type CallExpression } from "ts-morph";
import type { Rule, RuleContext } from "../types.js";

/** What to use instead of each dormant point, and why. */
const ADVICE: Readonly<Record<string, string>> = {
  [HookPoint.API_PRE_CALL]:
    "To run code before each model call, register a pre-invocation hook on the model's HookRegistry (`registry.preInvoke(fn)`).",
  [HookPoint.API_POST_CALL]:
    "To run code after each model call, register a post-invocation hook on the model's HookRegistry (`registry.postInvoke(fn)`).",
  [HookPoint.API_STREAM_CHUNK]:
    "To see streamed chunks, give the model's HookRegistry a stream handler keyed by chunk type (`new HookRegistry({ streamHandlers: { ... } })`).",
  [HookPoint.ARTIFACT_CREATED]:
    "No artifact emit site exists: call your handler where the artifact is produced, or record a Signal through the session observer.",
};

const MEMBER_BY_VALUE: ReadonlyMap<string, string> = new Map(Object.entries(HookPoint).map(([member, value]) => [value, member]));

/** The runtime functions whose first argument maps hook point values to handler names. */
const DECLARATIVE_LOADERS = ["buildSessionBus", "loadHooksForAgent"];

export const dormantHookPoint: Rule = {
  code: "HL001",
  name: "dormant-hook-point",
  defaultSeverity: "warning",
  summary: "A handler registered on a HookPoint that nothing emits never runs.",
  check(context) {
    context.sourceFile.forEachDescendant((node) => {
      if (Node.isCallExpression(node)) checkCall(node, context);
    });
  },
};

function checkCall(call: CallExpression, context: RuleContext): void {
  const callee = call.getExpression();
  const [first] = call.getArguments();
  if (!first) return;
  const { runtime } = context;
  const registersOnBus =
    Node.isPropertyAccessExpression(callee) && callee.getName() === "on" && runtime.isInstanceOf(callee.getExpression(), "HookBus");
  if (registersOnBus || runtime.is(callee, "hook")) {
    reportIfDormant(first, runtime.hookPointValue(first), context);
  } else if (Node.isObjectLiteralExpression(first) && DECLARATIVE_LOADERS.some((name) => runtime.is(callee, name))) {
    for (const property of first.getProperties()) {
      if (!Node.isPropertyAssignment(property)) continue;
      const key = property.getNameNode();
      if (Node.isStringLiteral(key)) reportIfDormant(key, key.getLiteralValue(), context);
      else if (Node.isComputedPropertyName(key)) reportIfDormant(key, runtime.hookPointValue(key.getExpression()), context);
    }
  }
}

function reportIfDormant(node: Node, value: string | null, context: RuleContext): void {
  const advice = value === null ? undefined : ADVICE[value];
  if (value === null || advice === undefined) return;
  context.report({
    start: node.getStart(),
    end: node.getEnd(),
    message: `HookPoint.${MEMBER_BY_VALUE.get(value)} is dormant: this handler never runs`,
    explanation: `Nothing in the runtime emits "${value}", so a handler registered on it is accepted without error and never called. ${advice}`,
  });
}
