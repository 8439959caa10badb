import { afterEach, describe, expect, it } from "vitest";
import { hoverAt } from "../../server/src/lsp/hover.js";
import { analyzeFixture, disposeFixture } from "../helpers/analyzeFixture.js";

afterEach(disposeFixture);

type Options = Parameters<typeof analyzeFixture>[1];

/** The HL010 findings of a fixture, as the text each one covers. */
const flagged = (source: string, options?: Options) =>
  analyzeFixture(source, options)
    .filter((f) => f.code === "HL010")
    .map((f) => f.text);

const REGISTRY = `import { HookRegistry } from "@hooklens/runtime";\nconst registry = new HookRegistry();\n`;
const TRAP = `${REGISTRY}registry.preEventCreateHook((eventClass) => {\n  return { substitute: eventClass };\n});\n`;

describe("HL010 pre-create-return-ignored: what it flags", () => {
  it("flags the return as a warning with a short headline and what to do instead, and offers no fix", () => {
    const findings = analyzeFixture(TRAP);
    expect(findings).toEqual([expect.objectContaining({ code: "HL010", severity: "warning", text: "return { substitute: eventClass };" })]);
    const [{ message, explanation, fix }] = findings as [(typeof findings)[number]];
    expect(message).toBe("This pre_event_create hook's return value is ignored: the event is built anyway");
    expect(explanation).toContain("builds the APICalling itself whatever the hook returned");
    expect(explanation).toContain("createEventExitHook: true");
    expect(explanation).toContain("registry.preInvoke");
    expect(fix).toBeUndefined();
  });

  const cases: [reason: string, source: string, texts: string[], options?: Options][] = [
    [
      "a constructor key on a model (the shape of examples/service/traps.ts)",
      `import { IModel, ScriptedEndpoint } from "@hooklens/runtime";\nconst substitute = { not: "used" };\nnew IModel({ endpoint: new ScriptedEndpoint(), hookRegistry: { hooks: { pre_event_create: () => substitute } } });`,
      ["substitute"],
    ],
    ["the pre_event_create_hook alias", `import { HookRegistry } from "@hooklens/runtime";\nnew HookRegistry({ hooks: { pre_event_create_hook: () => false } });`, ["false"]],
    [
      "a computed HookEventTypes key",
      `import { HookEventTypes, HookRegistry } from "@hooklens/runtime";\nnew HookRegistry({ hooks: { [HookEventTypes.PreEventCreate]: (cls) => cls } });`,
      ["cls"],
    ],
    ["an async hook resolving to a value", `${REGISTRY}registry.preEventCreateHook(async () => { await Promise.resolve(); return "replacement"; });`, ['return "replacement";']],
    ["a returned promise of a value", `${REGISTRY}declare function lookUp(): Promise<{ id: string }>;\nregistry.preEventCreateHook(() => { return lookUp(); });`, ["return lookUp();"]],
    ["a named function", `${REGISTRY}function veto() { return false; }\nregistry.preEventCreateHook(veto);`, ["return false;"]],
    ["aliased imports and the model's registry", `import { IModel as Model, ScriptedEndpoint } from "@hooklens/runtime";\nnew Model({ endpoint: new ScriptedEndpoint() }).hookRegistry.preEventCreateHook(() => 1);`, ["1"]],
    ["a runtime that cannot be resolved (import specifier only)", TRAP, ["return { substitute: eventClass };"], { runtime: "missing" }],
  ];

  it.each(cases)("flags %s", (_reason, source, texts, options) => {
    expect(flagged(source, options)).toEqual(texts);
  });
});

describe("HL010 pre-create-return-ignored: what it leaves alone", () => {
  const clean: [reason: string, source: string][] = [
    ["a hook that only logs (the shape of examples/service/hooks.ts)", `${REGISTRY}registry.preEventCreateHook((eventClass) => console.log(eventClass.name));`],
    ["bare returns, undefined, null and void", `${REGISTRY}registry.preEventCreateHook((c) => { if (!c) return; if (c.name) return undefined; if (c.length) return null; return void 0; });`],
    ["a promise of nothing", `${REGISTRY}declare function audit(): Promise<void>;\nregistry.preEventCreateHook(() => { return audit(); });`],
    ["a hook that throws", `${REGISTRY}registry.preEventCreateHook(() => { throw new Error("no"); });`],
    ["a returned Error (HL011 reports it)", `${REGISTRY}registry.preEventCreateHook(() => new Error("no"));`],
    ["a two-item array, which the registry reads as a failure", `${REGISTRY}registry.preEventCreateHook(() => ["ok", new Error("no")]);`],
    ["a pre_invocation hook that returns a value", `${REGISTRY}registry.preInvoke(() => ({ ok: true }));`],
    ["a value of unknown type", `${REGISTRY}declare const anything: any;\nregistry.preEventCreateHook(() => anything);`],
    ["a nested callback's return", `${REGISTRY}registry.preEventCreateHook(() => { [1].map((n) => n + 1); });`],
    [
      "a look-alike registry",
      `class HookRegistry { preEventCreateHook(fn: () => unknown) { return fn; } }\nnew HookRegistry().preEventCreateHook(() => ({ x: 1 }));`,
    ],
  ];

  it.each(clean)("does not flag %s", (_reason, source) => {
    expect(flagged(source)).toEqual([]);
  });
});

describe("HL010 hover", () => {
  it("gives the rule, the explanation and the docs link, not the headline again", () => {
    const findings = analyzeFixture(TRAP);
    const lineStarts = [0, ...[...TRAP.matchAll(/\n/g)].map((m) => m.index + 1)];
    const hover = hoverAt(findings, TRAP.indexOf("substitute"), lineStarts, (code) => `https://example.test/${code}.md`);
    const value = hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
    expect(value).toContain("**HookLens HL010** `pre-create-return-ignored`");
    expect(value).toContain("(https://example.test/HL010.md)");
    expect(value).toContain(findings[0]!.explanation);
    expect(value).not.toContain(findings[0]!.message);
    expect(hover?.range).toEqual({ start: { line: 3, character: 2 }, end: { line: 3, character: 36 } });
  });
});
