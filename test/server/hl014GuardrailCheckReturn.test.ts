import { Node, Project, SyntaxKind } from "ts-morph";
import { afterEach, describe, expect, it } from "vitest";
import { checkedBadKinds, literalBadKinds } from "../../server/src/analyzer/packs/hooklens/rules/hl014GuardrailCheckReturn.js";
import { hoverAt } from "../../server/src/lsp/hover.js";
import { analyzeFixture, disposeFixture } from "../helpers/analyzeFixture.js";
import { createFixture, REPO_ROOT } from "../helpers/fixtureProject.js";

afterEach(disposeFixture);

type Options = Parameters<typeof analyzeFixture>[1];

/** The HL014 findings of a fixture, as the text each one covers and its headline. */
const flagged = (source: string, options?: Options) =>
  analyzeFixture(source, options)
    .filter((f) => f.code === "HL014")
    .map((f) => [f.text, f.message]);

const HEADER = `import { GuardrailHook } from "@hooklens/runtime";\n`;
const headline = (what: string) => `This guardrail check can return ${what}: the hook then throws ToolUsageError`;

describe("HL014 guardrail-check-return: what it flags", () => {
  it("flags an inline check with a path that returns nothing, on the check's head, and explains the verdicts", () => {
    const findings = analyzeFixture(`${HEADER}export const guard = new GuardrailHook((_stage, payload) => {\n  if (String(payload).includes("password")) return "looks like a password";\n});\n`);
    expect(findings).toEqual([expect.objectContaining({ code: "HL014", severity: "warning", text: "(_stage, payload) =>", message: headline("undefined") })]);
    const [{ message, explanation, fix }] = findings as [(typeof findings)[number]];
    expect(message.length).toBeLessThanOrEqual(100);
    expect(explanation).toContain("true lets the call through");
    expect(explanation).toContain("false or a string blocks it with GuardrailBlocked");
    expect(explanation).toContain("ToolUsageError");
    expect(explanation).toContain("ends without a return statement");
    expect(fix).toBeUndefined();
  });

  const cases: [string, string, string[][], Options?][] = [
    ["a function declaration that returns a number", `${HEADER}function score(_s: unknown, p: unknown) { return String(p).length; }\nnew GuardrailHook(score);`, [["score", headline("a number")]]],
    ["an async check whose promise can resolve to null", `${HEADER}const check = async (_s: string, p: unknown) => (p ? true : null);\nnew GuardrailHook(check, { on: ["args", "result"] });`, [["check", headline("null")]]],
    ["a check that returns an object", `${HEADER}new GuardrailHook(function verdict() { return { ok: true }; });`, [["function verdict()", headline("an object")]]],
    ["a check that only logs (returns void)", `${HEADER}new GuardrailHook((stage) => { console.log(stage); });`, [["(stage) =>", headline("undefined")]]],
    ["a union of several wrong kinds, once each", `${HEADER}new GuardrailHook((_s, p) => (p === 1 ? 0 : p === 2 ? [] : p === 3 ? 1 : true));`, [["(_s, p) =>", headline("a number or an array")]]],
    ["an aliased import", `import { GuardrailHook as Guard } from "@hooklens/runtime";\nnew Guard(() => 1);`, [["() =>", headline("a number")]]],
    [
      "a re-export through a local module and a check imported from another file",
      `import { Guard } from "./guards";\nimport { lengthCheck } from "./checks";\nnew Guard(lengthCheck);`,
      [["lengthCheck", headline("a number")]],
      { extra: { "guards.ts": `export { GuardrailHook as Guard } from "@hooklens/runtime";\n`, "checks.ts": `export function lengthCheck(_s: string, p: unknown) { return String(p).length; }\n` } },
    ],
    ["a user subclass that keeps the constructor", `${HEADER}class Strict extends GuardrailHook {}\nnew Strict(() => undefined);`, [["() =>", headline("undefined")]]],
    ["a runtime that cannot be resolved (import specifier only)", `${HEADER}new GuardrailHook(() => 42);`, [["() =>", headline("a number")]], { runtime: "missing" }],
    [
      "a path without a return when strictNullChecks is off (the checker then drops undefined)",
      `${HEADER}new GuardrailHook((_s, p) => { if (p) return "blocked"; });`,
      [["(_s, p) =>", headline("undefined")]],
      { runtime: "missing", extra: { "tsconfig.json": JSON.stringify({ compilerOptions: { strict: false, target: "ES2022", module: "ESNext", moduleResolution: "Bundler" } }) } },
    ],
  ];

  it.each(cases)("flags %s", (_label, source, expected, options) => {
    expect(flagged(source, options)).toEqual(expected);
  });
});

describe("HL014 guardrail-check-return: what it leaves alone", () => {
  const clean: [string, string, Options?][] = [
    ["a check returning true or a reason", `${HEADER}export function noSecrets(_s: string, p: unknown): boolean | string {\n  return !JSON.stringify(p).includes("password") || "looks like a password";\n}\nnew GuardrailHook(noSecrets);`],
    ["an async check resolving to a boolean", `${HEADER}new GuardrailHook(async (_s, p) => { await Promise.resolve(); return p !== null; });`],
    ["a check that throws on one path and returns true on the other", `${HEADER}new GuardrailHook((_s, p) => { if (!p) throw new Error("no payload"); return true; });`],
    ["a check typed as GuardrailCheck (its type promises a verdict)", `import { GuardrailHook, type GuardrailCheck } from "@hooklens/runtime";\nexport const make = (check: GuardrailCheck) => new GuardrailHook(check);`],
    ["a check whose return type is any", `${HEADER}declare const loose: (s: string, p: unknown) => any;\nnew GuardrailHook(loose);`],
    [
      "a body that ends in a throw when strictNullChecks is off",
      `${HEADER}new GuardrailHook((_s, p) => { if (p) return true; throw new Error("empty"); });`,
      { runtime: "missing", extra: { "tsconfig.json": JSON.stringify({ compilerOptions: { strict: false, target: "ES2022", module: "ESNext", moduleResolution: "Bundler" } }) } },
    ],
    ["a look-alike GuardrailHook class of the user's own", `class GuardrailHook { constructor(_check: () => unknown) {} }\nnew GuardrailHook(() => 42);`],
    ["a subclass with a constructor of its own", `${HEADER}class Fixed extends GuardrailHook { constructor(_limit: () => number) { super(() => true); } }\nnew Fixed(() => 3);`],
  ];

  it.each(clean)("does not flag %s", (_label, source, options) => {
    expect(flagged(source, options)).toEqual([]);
  });
});

describe("HL014 hover", () => {
  it("shows the rule under the cursor and links its page", () => {
    const source = `${HEADER}function score(_s: unknown, p: unknown) { return String(p).length; }\nnew GuardrailHook(score);\n`;
    const findings = analyzeFixture(source);
    const lineStarts = [0, ...[...source.matchAll(/\n/g)].map((m) => m.index + 1)];
    const hover = hoverAt(findings, source.lastIndexOf("score"), lineStarts, (code) => `https://example.test/${code}.md`);
    const value = hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
    expect(value).toContain("**HookLens HL014** `guardrail-check-return`");
    // The editor shows the headline already; the hover adds the explanation.
    expect(value).toContain("true lets the call through");
    expect(value).not.toContain("can return a number");
    expect(value).toContain("(https://example.test/HL014.md)");
    expect(hover?.range).toEqual({ start: { line: 2, character: 18 }, end: { line: 2, character: 23 } });
  });
});

describe("HL014 guardrail-check-return: a check whose body syntax reads", () => {
  /** Concise bodies of `(_s, p) => …`: the kinds syntax settles, and forms it must leave to the checker. */
  const BODIES = [
    "0", "-1", "1n", '"blocked"', "`no ${String(p)}`", "true", "null", "undefined", "void 0", "[]", "({})", "({ ok: true })",
    "() => true", 'new Error("no")', 'new TypeError("no")', "p === 1", "!p", "typeof p", '"k" in Object(p)', "p instanceof Error",
    "p ? 0 : null", 'p ? "no" : true', "p ? undefined : 0", '(p ? null : "x")', "p ? 1n : 2", "p ? [] : {}", "p ? () => 1 : {}",
    "({ then: 1 })", "({ ...Object(p) })", "p", "String(p)", "p || 0", "p ? 0 : String(p)",
  ];
  /** What syntax leaves to the checker: names, calls, thenables, spreads, and two kinds the checker may list either way round. */
  const LEFT_TO_THE_CHECKER = ["p ? 1n : 2", "p ? [] : {}", "p ? () => 1 : {}", "({ then: 1 })", "({ ...Object(p) })", "p", "String(p)", "p || 0", "p ? 0 : String(p)"];
  const NULLISH = ["null", "undefined", "void 0", "p ? 0 : null", "p ? undefined : 0", "(p ? null : \"x\")"];

  const answers = (strict: boolean, prefix: "" | "async ") => {
    const fixture = createFixture();
    try {
      const source = BODIES.map((body, i) => `export const g${i} = new GuardrailHook(${prefix}(_s, p) => ${body});`).join("\n");
      fixture.write("tsconfig.json", JSON.stringify({ compilerOptions: { strict, target: "ES2022", module: "ESNext", moduleResolution: "Bundler", skipLibCheck: true, paths: { "@hooklens/runtime": [`${REPO_ROOT}/runtime/src/index.ts`] } } }));
      const path = fixture.write("checks.ts", `import { GuardrailHook } from "@hooklens/runtime";\n${source}\n`);
      const project = new Project({ tsConfigFilePath: fixture.path("tsconfig.json"), skipAddingFilesFromTsConfig: true });
      const arrows = project.addSourceFileAtPath(path).getDescendantsOfKind(SyntaxKind.NewExpression)
        .filter((made) => made.getExpression().getText() === "GuardrailHook")
        .map((made) => made.getArguments()[0]!);
      return arrows.map((arrow, i) => {
        if (!Node.isArrowFunction(arrow)) throw new Error(`not an arrow: ${arrow.getText()}`);
        return { body: BODIES[i], syntax: literalBadKinds(arrow, strict), checker: checkedBadKinds(arrow, arrow, strict) };
      });
    } finally {
      fixture.dispose();
    }
  };

  it.each([
    [true, ""],
    [true, "async "],
    [false, ""],
  ] as const)("gives the checker's words in the checker's order (strict %s, %sarrows)", (strict, prefix) => {
    const rows = answers(strict, prefix);
    const read = rows.filter((row) => row.syntax !== undefined);
    expect(read.filter((row) => JSON.stringify(row.syntax) !== JSON.stringify(row.checker))).toEqual([]);
    // Without strictNullChecks, null and undefined widen to any: those bodies go to the checker too.
    const left = rows.filter((row) => row.syntax === undefined).map((row) => row.body);
    expect(left).toEqual(strict ? LEFT_TO_THE_CHECKER : [...NULLISH, ...LEFT_TO_THE_CHECKER].sort((a, b) => BODIES.indexOf(a) - BODIES.indexOf(b)));
  });
});
