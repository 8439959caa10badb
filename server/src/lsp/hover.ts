import type { Hover } from "vscode-languageserver";
import { ALL_RULES } from "../analyzer/index.js";
import type { Finding } from "../analyzer/index.js";
import { rangeOf } from "./convert.js";

const RULE_NAMES = new Map(ALL_RULES.map((rule) => [rule.code, rule.name]));

/**
 * A hover for the findings under the cursor. The editor already shows each finding's headline
 * beside the hover, so this adds what it does not: the rule, the explanation and its page.
 */
export function hoverAt(findings: readonly Finding[], offset: number, lineStarts: readonly number[], docsUrl: (code: string) => string): Hover | null {
  const here = findings.filter((f) => f.start <= offset && offset <= f.end);
  if (here.length === 0) return null;
  const value = here
    .map((f) => {
      const title = `**HookLens ${f.code}** \`${RULE_NAMES.get(f.code) ?? ""}\``;
      const explanation = f.explanation ? `\n\n${f.explanation}` : "";
      return `${title}${explanation}\n\n[Rule documentation](${docsUrl(f.code)})`;
    })
    .join("\n\n---\n\n");
  return { contents: { kind: "markdown", value }, range: rangeOf(lineStarts, here[0]!) };
}
