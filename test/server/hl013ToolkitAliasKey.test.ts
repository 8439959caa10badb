import { afterEach, describe, expect, it } from "vitest";
import { hoverAt } from "../../server/src/lsp/hover.js";
import { analyzeFixture, applyFix, disposeFixture } from "../helpers/analyzeFixture.js";
import { typeErrors } from "../helpers/typeCheckFixture.js";

afterEach(disposeFixture);

type Options = Parameters<typeof analyzeFixture>[1];

/** The HL013 findings of a fixture, as the text each one covers. */
const flagged = (source: string, options?: Options) =>
  analyzeFixture(source, options)
    .filter((f) => f.code === "HL013")
    .map((f) => f.text);

const HEADER = `import { CodingToolkit } from "@hooklens/runtime";\nconst toolkit = new CodingToolkit();\nconst guard = () => undefined;\n`;

describe("HL013 toolkit-alias-key: what it flags", () => {
  it("flags a pre hook keyed by bash_tool as a warning on the key, says why and offers the exact name", () => {
    const findings = analyzeFixture(`${HEADER}toolkit.pre("bash_tool", guard);\n`);
    expect(findings).toEqual([expect.objectContaining({ code: "HL013", severity: "warning", text: '"bash_tool"' })]);
    const [{ message, explanation, fix }] = findings as [(typeof findings)[number]];
    expect(message).toBe('CodingToolkit pre("bash_tool") never runs: the toolkit has no "bash_tool" alias');
    expect(message.length).toBeLessThanOrEqual(100);
    expect(explanation).toContain('"*" and the exact tool name only');
    expect(explanation).toContain("standalone");
    expect(explanation).toContain('Key the hook by "bash"');
    expect(fix?.title).toBe('Use the tool name "bash"');
  });

  const cases: [string, string, string[], Options?][] = [
    ["every hook builder (securityPre, post, onError)", `${HEADER}toolkit.securityPre("reader_tool", guard);\ntoolkit.post("search_tool", guard);\ntoolkit.onError("editor_tool", guard);`, ['"reader_tool"', '"search_tool"', '"editor_tool"']],
    ["calls chained on the constructor", `import { CodingToolkit } from "@hooklens/runtime";\nexport const t = new CodingToolkit().pre("*", () => undefined).post('editor_tool', () => undefined);`, ["'editor_tool'"]],
    ["a template literal key", `${HEADER}toolkit.pre(\`search_tool\`, guard);`, ["`search_tool`"]],
    ["a constant holding the alias", `${HEADER}const KEY = "bash_tool";\ntoolkit.pre(KEY, guard);`, ["KEY"]],
    ["an alias of a name the toolkit does not have", `${HEADER}toolkit.pre("grep_tool", guard);`, ['"grep_tool"']],
    ["an aliased import", `import { CodingToolkit as Kit } from "@hooklens/runtime";\nnew Kit().pre("bash_tool", () => undefined);`, ['"bash_tool"']],
    [
      "a re-export through a local module",
      `import { Toolkit } from "./tools";\nnew Toolkit().post("reader_tool", () => undefined);`,
      ['"reader_tool"'],
      { extra: { "tools.ts": `export { CodingToolkit as Toolkit } from "@hooklens/runtime";\n` } },
    ],
    ["a user subclass of the toolkit", `import { CodingToolkit } from "@hooklens/runtime";\nclass MyKit extends CodingToolkit {}\nnew MyKit().securityPre("bash_tool", () => undefined);`, ['"bash_tool"']],
    ["a runtime that cannot be resolved (import specifier only)", `${HEADER}toolkit.pre("bash_tool", guard);`, ['"bash_tool"'], { runtime: "missing" }],
  ];

  it.each(cases)("flags %s", (_label, source, texts, options) => {
    expect(flagged(source, options)).toEqual(texts);
  });

  it("offers no fix for a name the toolkit does not have, nor for a key held in a constant", () => {
    const findings = analyzeFixture(`${HEADER}const KEY = "bash_tool";\ntoolkit.pre(KEY, guard);\ntoolkit.pre("grep_tool", guard);`).filter((f) => f.code === "HL013");
    expect(findings.map((f) => f.fix)).toEqual([undefined, undefined]);
    expect(findings[1]!.explanation).toContain('"grep" is not one of the toolkit\'s tools either');
  });
});

describe("HL013 toolkit-alias-key: what it leaves alone", () => {
  const clean: [string, string, Options?][] = [
    ["the exact tool names and the wildcard", `${HEADER}toolkit.pre("bash", guard).securityPre("*", guard).post("reader", guard).onError("search", guard);`],
    ["an AgentSpec hook (its standalone tools do fall back to the alias)", `import { AgentSpec } from "@hooklens/runtime";\nnew AgentSpec({ tools: ["bash"] }).pre("bash_tool", () => undefined);`],
    ["a key whose value is not known", `${HEADER}export function add(name: string) { toolkit.pre(name, guard); }`],
    ["a look-alike toolkit class of the user's own", `class CodingToolkit { pre(_name: string, _fn: () => void) { return this; } }\nnew CodingToolkit().pre("bash_tool", () => undefined);`],
    ["a bare _tool key (no tool name in front)", `${HEADER}toolkit.pre("_tool", guard);`],
  ];

  it.each(clean)("does not flag %s", (_label, source, options) => {
    expect(flagged(source, options)).toEqual([]);
  });
});

describe("HL013 quick fix", () => {
  it.each([
    ['"bash_tool"', '"bash"'],
    ["'editor_tool'", "'editor'"],
    ["`search_tool`", "`search`"],
  ])("rewrites %s to %s, after which the file is clean", (key, renamed) => {
    const source = `${HEADER}toolkit.pre(${key}, guard);\n`;
    const [finding] = analyzeFixture(source).filter((f) => f.code === "HL013");
    const fixed = applyFix(source, finding!);
    expect(fixed).toContain(`toolkit.pre(${renamed}, guard);`);
    expect(flagged(fixed)).toEqual([]);
  });

  it("leaves code that still compiles", () => {
    const source = `${HEADER}toolkit.pre("bash_tool", guard);\n`;
    const [finding] = analyzeFixture(source).filter((f) => f.code === "HL013");
    expect(typeErrors(applyFix(source, finding!))).toEqual([]);
  });
});

describe("HL013 hover", () => {
  it("shows the rule under the cursor and links its page", () => {
    const source = `${HEADER}toolkit.post("reader_tool", guard);\n`;
    const findings = analyzeFixture(source);
    const lineStarts = [0, ...[...source.matchAll(/\n/g)].map((m) => m.index + 1)];
    const hover = hoverAt(findings, source.indexOf("reader_tool"), lineStarts, (code) => `https://example.test/${code}.md`);
    const value = hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
    expect(value).toContain("**HookLens HL013** `toolkit-alias-key`");
    // The editor shows the headline already; the hover adds the explanation.
    expect(value).toContain('"*" and the exact tool name only');
    expect(value).toContain('Key the hook by "reader"');
    expect(value).not.toContain("never runs: the toolkit has no");
    expect(value).toContain("(https://example.test/HL013.md)");
    expect(hover?.range).toEqual({ start: { line: 3, character: 13 }, end: { line: 3, character: 26 } });
  });
});
