import { ALL_CODING_TOOLS } from "@hooklens/runtime";
import { Node, SyntaxKind, ts } from "ts-morph";
import { FileIndex } from "../../../engine/fileIndex.js";
import { clip } from "../../../engine/headline.js";
import type { Fix } from "../../../engine/types.js";
import type { Rule } from "../facts.js";

/** The CodingToolkit hook builders; each takes the tool name first. */
const TOOLKIT_HOOK_METHODS: readonly string[] = ["securityPre", "pre", "post", "onError"];
const ALIAS_SUFFIX = "_tool";

export const toolkitAliasKey: Rule = {
  code: "HL013",
  name: "toolkit-alias-key",
  defaultSeverity: "warning",
  summary: "A CodingToolkit hook keyed by a `<name>_tool` alias never runs: the toolkit looks up only \"*\" and the exact tool name.",
  check(context) {
    // One walk; the key (usually a literal, read without the checker) is tested before the receiver's class.
    const candidates = FileIndex.of(context.sourceFile).wrapped(
      SyntaxKind.CallExpression,
      (call) => ts.isPropertyAccessExpression(call.expression) && TOOLKIT_HOOK_METHODS.includes(call.expression.name.text),
    );
    for (const node of candidates) {
      const callee = node.getExpression();
      if (!Node.isPropertyAccessExpression(callee) || !TOOLKIT_HOOK_METHODS.includes(callee.getName())) continue;
      const [key] = node.getArguments();
      const value = key ? aliasKeyValue(key) : null;
      if (!key || value === null) continue;
      if (!context.facts.runtime.runtimeClassOf(callee.getExpression(), ["CodingToolkit"])) continue;
      const method = callee.getName();
      const canonical = value.slice(0, -ALIAS_SUFFIX.length);
      const isToolkitTool = (ALL_CODING_TOOLS as readonly string[]).includes(canonical);
      context.report({
        start: key.getStart(),
        end: key.getEnd(),
        message: `CodingToolkit ${method}("${clip(value, 15)}") never runs: the toolkit has no "${clip(value, 15)}" alias`,
        explanation:
          `A CodingToolkit looks up its hooks under "*" and the exact tool name only (${ALL_CODING_TOOLS.map((n) => `"${n}"`).join(", ")}); ` +
          `the "<name>_tool" fallback exists only for the standalone reader/editor/bash/search tools an AgentSpec registers one by one. ` +
          (isToolkitTool
            ? `Key the hook by "${canonical}" so the toolkit's ${canonical} tool runs it.`
            : `"${canonical}" is not one of the toolkit's tools either, so use one of those names or "*".`),
        fix: isToolkitTool && (Node.isStringLiteral(key) || Node.isNoSubstitutionTemplateLiteral(key)) ? renameKey(key, canonical) : undefined,
      });
    }
  },
};

/** The key's value when it is a `<name>_tool` alias: a literal read as written, anything else through its literal type. */
function aliasKeyValue(key: Node): string | null {
  let value: string | null;
  if (Node.isStringLiteral(key) || Node.isNoSubstitutionTemplateLiteral(key)) value = key.getLiteralValue();
  else if (Node.isIdentifier(key) || Node.isPropertyAccessExpression(key)) {
    const type = key.getType();
    value = type.isStringLiteral() ? String(type.getLiteralValue()) : null;
  } else value = null;
  return value !== null && value.endsWith(ALIAS_SUFFIX) && value.length > ALIAS_SUFFIX.length ? value : null;
}

/** Replaces the literal's text, keeping its quote character. */
function renameKey(literal: Node, canonical: string): Fix {
  const quote = literal.getText()[0]!;
  return { title: `Use the tool name "${canonical}"`, edits: [{ start: literal.getStart(), end: literal.getEnd(), newText: `${quote}${canonical}${quote}` }] };
}
