import { Node, type CallExpression } from "ts-morph";
import { majorOf, objectLiteralOf, optionNames, optionsCalls, propertyValue, unwrap, type AiSdkFacts } from "./facts.js";
import type { AiSdkRule } from "./rule.js";

/** The calls whose tool loop stops after one step unless `stopWhen` says otherwise (their default is one step). */
const ONE_STEP_CALLS = ["generateText", "streamText"] as const;

const WHY =
  "Without `stopWhen`, `generateText` and `streamText` stop after one step: the model calls a tool, the tool runs, and the " +
  "call ends there, with no answer that uses the tool's result (an empty `text`). Add `stopWhen: stepCountIs(5)` (or " +
  "another condition) to let the model answer after its tool calls.";

const MAX_STEPS_WHY =
  "`maxSteps` was removed in AI SDK 5: the installed version ignores it, and the call stops after one step. Use " +
  "`stopWhen: stepCountIs(n)` instead.";

export const toolLoopOneStep: AiSdkRule = {
  code: "HL303",
  name: "tool-loop-one-step",
  defaultSeverity: "warning",
  summary: "Tools with execute and no stopWhen (or a maxSteps the SDK ignores): the loop ends after the tools run, with no answer.",
  check(context) {
    const major = majorOf(context.facts.installedVersion());
    for (const { name, options } of optionsCalls(context.facts, ONE_STEP_CALLS)) {
      const { names, open } = optionNames(options);
      const maxSteps = names.get("maxSteps");
      if (maxSteps && maxSteps.getSourceFile() === context.sourceFile && major !== undefined && major >= 5) {
        context.report({ start: maxSteps.getStart(), end: maxSteps.getEnd(), message: `maxSteps is ignored by AI SDK ${major}: this ${name} stops after one step`, explanation: MAX_STEPS_WHY });
        continue;
      }
      if (open || names.has("stopWhen") || forcesToolChoice(names.get("toolChoice"))) continue;
      const tool = executingTool(propertyValue(names.get("tools")), context.facts);
      if (!tool) continue;
      const at = names.get("tools")!;
      context.report({
        start: at.getStart(),
        end: at.getStart() + "tools".length,
        message: `${name} runs tool "${tool}" but has no stopWhen: it ends after one step, with no answer`,
        explanation: WHY,
      });
    }
  },
};

/** Any `toolChoice` but `"auto"` (`"required"`, a named tool, `"none"`, a value syntax cannot read): the program chose the step. */
function forcesToolChoice(property: Node | undefined): boolean {
  const value = propertyValue(property);
  if (!value) return false;
  const inner = unwrap(value);
  return !(Node.isStringLiteral(inner) && inner.getLiteralValue() === "auto");
}

/** The name of the first tool of a `tools` object that has an `execute` (`tool({ execute })` or `{ execute }`), else null. */
function executingTool(tools: Node | undefined, facts: AiSdkFacts): string | null {
  const object = objectLiteralOf(tools);
  if (!object) return null;
  for (const [name, property] of optionNames(object).names) {
    const value = propertyValue(property);
    if (!value) continue;
    const inner = unwrap(value);
    const definition = Node.isCallExpression(inner) && isToolCall(inner, facts) ? objectLiteralOf(inner.getArguments()[0]) : objectLiteralOf(inner);
    if (definition && optionNames(definition).names.has("execute")) return name;
  }
  return null;
}

function isToolCall(call: CallExpression, facts: AiSdkFacts): boolean {
  return facts.isAiExport(call.getExpression(), "tool");
}
