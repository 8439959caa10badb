import { Node, type ObjectLiteralExpression } from "ts-morph";
import { optionNames, optionsCalls } from "./facts.js";
import type { AiSdkRule } from "./rule.js";

/**
 * The calls whose options read a renamed callback as `newName ?? oldName` (verified in the
 * sources of AI SDK 7: `onEnd = onFinish`, `onStepEnd ?? onStepFinish`,
 * `repairToolCall = experimental_repairToolCall`, …). The pairs themselves are read from the
 * installed declarations: an option marked `@deprecated Use \`newName\` instead.`
 */
const CALLS = ["generateText", "streamText"] as const;
const REPLACED_BY = /Use\s+`([A-Za-z_$][\w$]*)`/;

export const oldAndNewCallbackNames: AiSdkRule = {
  code: "HL304",
  name: "old-and-new-option-names",
  defaultSeverity: "warning",
  summary: "An option under both its deprecated and its new name: only the new one is used, the other never runs.",
  check(context) {
    for (const { name, options } of optionsCalls(context.facts, CALLS)) checkOptions(options, name, context.report);
  },
};

function checkOptions(options: ObjectLiteralExpression, call: string, report: Parameters<AiSdkRule["check"]>[0]["report"]): void {
  const { names } = optionNames(options);
  if (names.size < 2) return;
  const type = options.getContextualType();
  if (!type) return;
  for (const [oldName, property] of names) {
    const symbol = type.getProperty(oldName);
    const deprecated = symbol?.getJsDocTags().find((tag) => tag.getName() === "deprecated");
    const newName = deprecated ? REPLACED_BY.exec(deprecated.getText().map((part) => part.text).join(""))?.[1] : undefined;
    if (!newName || newName === oldName || !names.has(newName)) continue;
    if (!Node.isNode(property) || property.getSourceFile() !== options.getSourceFile()) continue;
    report({
      start: property.getStart(),
      end: property.getStart() + oldName.length,
      message: `${oldName} is ignored: ${newName} is set too, and ${call} uses only ${newName}`,
      explanation:
        `The installed AI SDK marks \`${oldName}\` as deprecated for \`${newName}\` and reads \`${newName} ?? ${oldName}\`: ` +
        `with both set, \`${oldName}\` is ignored. Merge what it does into \`${newName}\` and remove it.`,
    });
  }
}
