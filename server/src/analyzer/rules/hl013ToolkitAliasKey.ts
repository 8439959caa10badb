import { ALL_CODING_TOOLS } from "@hooklens/runtime";
import { Node } from "ts-morph";
import { forEachRuntimeMethodCall } from "../methodCalls.js";
import type { Fix, Rule } from "../types.js";

/** The CodingToolkit hook builders; each takes the tool name first. */
const TOOLKIT_HOOK_METHODS = ["securityPre", "pre", "post", "onError"] as const;
const ALIAS_SUFFIX = "_tool";

export const toolkitAliasKey: Rule = {
  code: "HL013",
  name: "toolkit-alias-key",
  defaultSeverity: "warning",
  summary: "A CodingToolkit hook keyed by a `<name>_tool` alias never runs: the toolkit looks up only \"*\" and the exact tool name.",
  check(context) {
    for (const method of TOOLKIT_HOOK_METHODS) {
      forEachRuntimeMethodCall(context, method, ["CodingToolkit"], (call) => {
        const [key] = call.getArguments();
        if (!key) return;
        const type = key.getType();
        const value = type.isStringLiteral() ? type.getLiteralValue() : null;
        if (typeof value !== "string" || !value.endsWith(ALIAS_SUFFIX) || value.length === ALIAS_SUFFIX.length) return;
        const canonical = value.slice(0, -ALIAS_SUFFIX.length);
        const isToolkitTool = (ALL_CODING_TOOLS as readonly string[]).includes(canonical);
        context.report({
          start: key.getStart(),
          end: key.getEnd(),
          message: `CodingToolkit ${method}("${value}") never runs: the toolkit has no "${value}" alias`,
          explanation:
            `A CodingToolkit looks up its hooks under "*" and the exact tool name only (${ALL_CODING_TOOLS.map((n) => `"${n}"`).join(", ")}); ` +
            `the "<name>_tool" fallback exists only for the standalone reader/editor/bash/search tools an AgentSpec registers one by one. ` +
            (isToolkitTool
              ? `Key the hook by "${canonical}" so the toolkit's ${canonical} tool runs it.`
              : `"${canonical}" is not one of the toolkit's tools either, so use one of those names or "*".`),
          fix: isToolkitTool && (Node.isStringLiteral(key) || Node.isNoSubstitutionTemplateLiteral(key)) ? renameKey(key, canonical) : undefined,
        });
      });
    }
  },
};

/** Replaces the literal's text, keeping its quote character. */
function renameKey(literal: Node, canonical: string): Fix {
  const quote = literal.getText()[0]!;
  return { title: `Use the tool name "${canonical}"`, edits: [{ start: literal.getStart(), end: literal.getEnd(), newText: `${quote}${canonical}${quote}` }] };
}
