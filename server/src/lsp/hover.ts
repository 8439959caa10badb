import type { Hover } from "vscode-languageserver";
import { ALL_RULES } from "../analyzer/rules/index.js";
import type { Finding } from "../analyzer/types.js";
import { rangeOf } from "./convert.js";

const RULE_NAMES = new Map(ALL_RULES.map((rule) => [rule.code, rule.name]));

/** A hover for the findings under the cursor: what is wrong, and a link to the rule's page. */
export function hoverAt(findings: readonly Finding[], offset: number, lineStarts: readonly number[], docsUrl: (code: string) => string): Hover | null {
  const here = findings.filter((f) => f.start <= offset && offset <= f.end);
  if (here.length === 0) return null;
  const value = here
    .map((f) => `**HookLens ${f.code}** \`${RULE_NAMES.get(f.code) ?? ""}\`\n\n${f.message}\n\n[Rule documentation](${docsUrl(f.code)})`)
    .join("\n\n---\n\n");
  return { contents: { kind: "markdown", value }, range: rangeOf(lineStarts, here[0]!) };
}
