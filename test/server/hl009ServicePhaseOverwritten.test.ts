import { afterEach, describe, expect, it } from "vitest";
import { hoverAt } from "../../server/src/lsp/hover.js";
import { analyzeFixture, disposeFixture } from "../helpers/analyzeFixture.js";

afterEach(disposeFixture);

type Options = Parameters<typeof analyzeFixture>[1];

/** The HL009 findings of a fixture, as the text each one covers and its headline. */
const flagged = (source: string, options?: Options) =>
  analyzeFixture(source, options)
    .filter((f) => f.code === "HL009")
    .map((f) => `${f.text} | ${f.message}`);

const IMPORT = `import { HookEventTypes, HookRegistry, IModel, ScriptedEndpoint } from "@hooklens/runtime";\n`;
const TRAP = `${IMPORT}const registry = new HookRegistry({ hooks: { pre_invoke: () => undefined } });\nregistry.preInvoke(() => undefined);\n`;
const replaces = (phase: string, line: number) => `This replaces the ${phase} hook registered on line ${line}: a HookRegistry keeps one per phase`;

describe("HL009 service-phase-overwritten: what it flags", () => {
  it("flags the second registration as a warning naming the first one's line", () => {
    const findings = analyzeFixture(TRAP);
    expect(findings).toEqual([expect.objectContaining({ code: "HL009", severity: "warning", text: "registry.preInvoke(() => undefined)" })]);
    const [{ message, explanation, fix }] = findings as [(typeof findings)[number]];
    expect(message).toBe(replaces("pre_invocation", 2));
    expect(message.length).toBeLessThanOrEqual(100);
    expect(explanation).toContain("one handler per phase, not a chain");
    expect(explanation).toContain("Overwriting existing");
    expect(fix).toBeUndefined();
  });

  const cases: [reason: string, source: string, found: string[], options?: Options][] = [
    [
      "two calls for the same phase",
      `${IMPORT}const registry = new HookRegistry();\nregistry.postInvoke(() => 1);\nregistry.postInvoke(() => 2);`,
      [`registry.postInvoke(() => 2) | ${replaces("post_invocation", 3)}`],
    ],
    [
      "a third call, reported against the second",
      `${IMPORT}const r = new HookRegistry();\nr.preEventCreateHook(() => 1);\nr.preEventCreateHook(() => 2);\nr.preEventCreateHook(() => 3);`,
      [`r.preEventCreateHook(() => 2) | ${replaces("pre_event_create", 3)}`, `r.preEventCreateHook(() => 3) | ${replaces("pre_event_create", 4)}`],
    ],
    [
      "an alias key and its value in one hooks object (no runtime warning at all)",
      `${IMPORT}new HookRegistry({ hooks: { pre_invoke: () => 1, pre_invocation: () => 2 } });`,
      [`pre_invocation: () => 2 | ${replaces("pre_invocation", 2)}`],
    ],
    [
      "a computed enum key after a string key",
      `${IMPORT}new HookRegistry({ hooks: { post_invoke: () => 1, [HookEventTypes.PostInvocation]: () => 2 } });`,
      [`[HookEventTypes.PostInvocation]: () => 2 | ${replaces("post_invocation", 2)}`],
    ],
    [
      "a model's constructor key, then a call on model.hookRegistry",
      `${IMPORT}const model = new IModel({ endpoint: new ScriptedEndpoint(), hookRegistry: { hooks: { post_invocation: () => 1 } } });\nmodel.hookRegistry.postInvoke(() => 2);`,
      [`model.hookRegistry.postInvoke(() => 2) | ${replaces("post_invocation", 2)}`],
    ],
    [
      "a call whose result is kept (`const h = registry.preInvoke(fn)`)",
      `${IMPORT}const registry = new HookRegistry();\nregistry.preInvoke(() => 1);\nexport const h = registry.preInvoke(() => 2);`,
      [`registry.preInvoke(() => 2) | ${replaces("pre_invocation", 3)}`],
    ],
    [
      "two calls in one function body",
      `${IMPORT}const shared = new HookRegistry();\nexport function wire() {\n  shared.preInvoke(() => 1);\n  shared.preInvoke(() => 2);\n}`,
      [`shared.preInvoke(() => 2) | ${replaces("pre_invocation", 4)}`],
    ],
    [
      "aliased imports",
      `import { HookRegistry as Hooks } from "@hooklens/runtime";\nconst r = new Hooks({ hooks: { pre_event_create: () => undefined } });\nr.preEventCreateHook(() => undefined);`,
      [`r.preEventCreateHook(() => undefined) | ${replaces("pre_event_create", 2)}`],
    ],
    ["a runtime that cannot be resolved (import specifier only)", TRAP, [`registry.preInvoke(() => undefined) | ${replaces("pre_invocation", 2)}`], { runtime: "missing" }],
  ];

  it.each(cases)("flags %s", (_reason, source, found, options) => {
    expect(flagged(source, options)).toEqual(found);
  });
});

describe("HL009 service-phase-overwritten: what it leaves alone", () => {
  const clean: [reason: string, source: string][] = [
    ["one handler per phase", `${IMPORT}const r = new HookRegistry({ hooks: { pre_invoke: () => 1 } });\nr.postInvoke(() => 2);\nr.preEventCreateHook(() => 3);`],
    ["two registries", `${IMPORT}const a = new HookRegistry();\nconst b = new HookRegistry();\na.preInvoke(() => 1);\nb.preInvoke(() => 2);`],
    ["a second registration under a condition", `${IMPORT}const r = new HookRegistry();\nr.preInvoke(() => 1);\nif (process.env["STRICT"]) r.preInvoke(() => 2);`],
    ["a second registration in a callback", `${IMPORT}const r = new HookRegistry();\nr.preInvoke(() => 1);\nsetTimeout(() => r.preInvoke(() => 2));`],
    [
      "calls on a `let` that may hold another registry by then",
      `${IMPORT}let r = new HookRegistry();\nr.preInvoke(() => 1);\nr = new HookRegistry();\nr.preInvoke(() => 2);`,
    ],
    ["a registry passed in as a parameter", `${IMPORT}export function wire(r: HookRegistry) {\n  r.preInvoke(() => 1);\n}\nexport function rewire(r: HookRegistry) {\n  r.preInvoke(() => 2);\n}`],
    [
      "a look-alike registry class",
      `class HookRegistry { preInvoke(fn: () => unknown) { return fn; } }\nconst r = new HookRegistry();\nr.preInvoke(() => 1);\nr.preInvoke(() => 2);`,
    ],
    ["stream handlers for different chunk types", `${IMPORT}new HookRegistry({ streamHandlers: { text: (_e, _t, c) => c, json: (_e, _t, c) => c } });`],
  ];

  it.each(clean)("does not flag %s", (_reason, source) => {
    expect(flagged(source)).toEqual([]);
  });
});

describe("HL009 hover", () => {
  it("gives the rule, the explanation and the docs link, not the headline again", () => {
    const findings = analyzeFixture(TRAP);
    const lineStarts = [0, ...[...TRAP.matchAll(/\n/g)].map((m) => m.index + 1)];
    const hover = hoverAt(findings, TRAP.lastIndexOf("preInvoke"), lineStarts, (code) => `https://example.test/${code}.md`);
    const value = hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
    expect(value).toContain("**HookLens HL009** `service-phase-overwritten`");
    expect(value).toContain("(https://example.test/HL009.md)");
    expect(value).toContain(findings[0]!.explanation);
    expect(value).not.toContain(findings[0]!.message);
    expect(hover?.range).toEqual({ start: { line: 2, character: 0 }, end: { line: 2, character: 35 } });
  });
});
