import { HookPoint } from "@hooklens/runtime";
import { Node, SyntaxKind, ts, type CallExpression } from "ts-morph";
import { FileIndex } from "../../../engine/fileIndex.js";
import { hookPointOf, loaderTable } from "../hookRegistrations.js";
import type { Rule, RuleContext } from "../facts.js";

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

export const dormantHookPoint: Rule = {
  code: "HL001",
  name: "dormant-hook-point",
  defaultSeverity: "warning",
  summary: "A handler registered on a HookPoint that nothing emits never runs.",
  check(context) {
    // A table in this file given to two loaders is reported once.
    const reported = new Set<string>();
    // Only `x.on(…)` and calls of what may be a runtime export can register a handler or load a table.
    const candidates = FileIndex.of(context.sourceFile).wrapped(
      SyntaxKind.CallExpression,
      (call) =>
        call.arguments.length > 0 &&
        ((ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === "on") || context.facts.runtime.mayDenoteImport(call.expression)),
    );
    for (const call of candidates) checkCall(call, context, reported);
  },
};

function checkCall(call: CallExpression, context: RuleContext, reported: Set<string>): void {
  const callee = call.getExpression();
  const { runtime } = context.facts;
  const registersOnBus =
    Node.isPropertyAccessExpression(callee) && callee.getName() === "on" && runtime.isInstanceOf(callee.getExpression(), "HookBus");
  // The argument is wrapped only for a call that registers or loads something (candidates have one).
  if (registersOnBus || runtime.is(callee, "hook")) {
    const first = call.getArguments()[0]!;
    reportIfDormant(first, hookPointOf(first, runtime), context, reported);
    return;
  }
  const table = loaderTable(call, runtime);
  if (!table) return;
  const first = call.getArguments()[0]!;
  // A table from another module is reported on the argument that brings it here.
  const local = table.getSourceFile() === context.sourceFile;
  for (const property of table.getProperties()) {
    if (!Node.isPropertyAssignment(property)) continue;
    const key = property.getNameNode();
    const value = Node.isStringLiteral(key) ? key.getLiteralValue() : Node.isComputedPropertyName(key) ? hookPointOf(key.getExpression(), runtime) : null;
    reportIfDormant(local ? key : first, value, context, reported);
  }
}

function reportIfDormant(node: Node, value: string | null, context: RuleContext, reported: Set<string>): void {
  const advice = value === null ? undefined : ADVICE[value];
  if (value === null || advice === undefined || reported.has(`${node.getStart()}:${value}`)) return;
  reported.add(`${node.getStart()}:${value}`);
  context.report({
    start: node.getStart(),
    end: node.getEnd(),
    message: `HookPoint.${MEMBER_BY_VALUE.get(value)} is dormant: this handler never runs`,
    explanation: `Nothing in the runtime emits "${value}", so a handler registered on it is accepted without error and never called. ${advice}`,
  });
}
