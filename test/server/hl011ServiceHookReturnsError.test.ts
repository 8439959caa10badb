import { afterEach, describe, expect, it } from "vitest";
import { hoverAt } from "../../server/src/lsp/hover.js";
import { analyzeFixture, applyFix, disposeFixture } from "../helpers/analyzeFixture.js";
import { typeErrors } from "../helpers/typeCheckFixture.js";

afterEach(disposeFixture);

type Options = Parameters<typeof analyzeFixture>[1];

/** The HL011 findings of a fixture, as the text each one covers. */
const flagged = (source: string, options?: Options) =>
  analyzeFixture(source, options)
    .filter((f) => f.code === "HL011")
    .map((f) => f.text);

const REGISTRY = `import { HookRegistry } from "@hooklens/runtime";\nconst registry = new HookRegistry();\n`;
const TRAP = `${REGISTRY}registry.preInvoke((event) => {\n  if (!event) return new Error("meant to block");\n});\n`;

describe("HL011 service-hook-returns-error: what it flags", () => {
  it("flags the return as a warning naming the phase and the consequence, with what throwing does instead", () => {
    const findings = analyzeFixture(TRAP);
    expect(findings).toEqual([expect.objectContaining({ code: "HL011", severity: "warning", text: 'return new Error("meant to block");' })]);
    const [{ message, explanation }] = findings as [(typeof findings)[number]];
    expect(message).toBe("This pre_invocation hook returns an Error instead of throwing it: the call is not blocked");
    expect(message.length).toBeLessThanOrEqual(100);
    expect(explanation).toContain("ends COMPLETED");
    expect(explanation).toContain("CANCELLED, which blocks the call whatever the exit policy");
  });

  it("says what happens in each phase and for a stream handler", () => {
    const source =
      `import { HookRegistry } from "@hooklens/runtime";\n` +
      `export const r = new HookRegistry({\n` +
      `  hooks: { pre_event_create: () => new Error("a"), post_invoke: () => new Error("b") },\n` +
      `  streamHandlers: { text: (_e, _t, chunk) => (chunk ? undefined : new TypeError("c")) },\n` +
      `});\n`;
    const messages = analyzeFixture(source).map((f) => f.message);
    expect(messages).toEqual([
      "This pre_event_create hook returns an Error instead of throwing it: the event is built anyway",
      "This post_invocation hook returns an Error instead of throwing it: the phase still completes",
      "This stream handler returns an Error instead of throwing it: the original chunk is delivered",
    ]);
    for (const message of messages) expect(message.length).toBeLessThanOrEqual(100);
  });

  const cases: [reason: string, source: string, texts: string[], options?: Options][] = [
    [
      "a constructor key, concise arrow (the shape of examples/service/traps.ts)",
      `import { IModel, ScriptedEndpoint } from "@hooklens/runtime";\nnew IModel({ endpoint: new ScriptedEndpoint(), hookRegistry: { hooks: { pre_invoke: () => new Error("meant to block") } } });`,
      ['new Error("meant to block")'],
    ],
    ["every accepted key spelling: pre_invocation", `import { HookRegistry } from "@hooklens/runtime";\nnew HookRegistry({ hooks: { pre_invocation: () => new Error("x") } });`, ['new Error("x")']],
    ["a quoted post_invocation key", `import { HookRegistry } from "@hooklens/runtime";\nnew HookRegistry({ hooks: { "post_invocation": () => new Error("x") } });`, ['new Error("x")']],
    ["pre_event_create_hook", `import { HookRegistry } from "@hooklens/runtime";\nnew HookRegistry({ hooks: { pre_event_create_hook: () => new Error("x") } });`, ['new Error("x")']],
    [
      "a computed HookEventTypes member key",
      `import { HookEventTypes, HookRegistry } from "@hooklens/runtime";\nnew HookRegistry({ hooks: { [HookEventTypes.PostInvocation]: () => new Error("x") } });`,
      ['new Error("x")'],
    ],
    ["a method-shorthand hook", `import { HookRegistry } from "@hooklens/runtime";\nnew HookRegistry({ hooks: { post_invoke() { return new Error("x"); } } });`, ['return new Error("x");']],
    [
      "a hooks object held in a const, with a handler declared as a function",
      `import { HookRegistry } from "@hooklens/runtime";\nfunction check() { return new RangeError("x"); }\nconst hooks = { pre_invoke: check };\nnew HookRegistry({ hooks });`,
      ['return new RangeError("x");'],
    ],
    ["an Error subclass of the user's own", `${REGISTRY}class Refused extends Error {}\nregistry.postInvoke(() => { return new Refused("x"); });`, ['return new Refused("x");']],
    ["an async hook (it resolves with the Error)", `${REGISTRY}registry.preInvoke(async () => { await Promise.resolve(); return new Error("x"); });`, ['return new Error("x");']],
    ["an Error held in a variable", `${REGISTRY}const refusal = new Error("x");\nregistry.preInvoke(() => { return refusal; });`, ["return refusal;"]],
    ["an Error or nothing", `${REGISTRY}declare function check(): Error | undefined;\nregistry.preInvoke(() => { return check(); });`, ["return check();"]],
    ["the registry of a model", `import { IModel, ScriptedEndpoint } from "@hooklens/runtime";\nconst model = new IModel({ endpoint: new ScriptedEndpoint() });\nmodel.hookRegistry.preEventCreateHook(() => new Error("x"));`, ['new Error("x")']],
    ["aliased imports", `import { HookRegistry as Hooks } from "@hooklens/runtime";\nnew Hooks().preInvoke(() => new Error("x"));`, ['new Error("x")']],
    [
      "a registry class re-exported through a local module",
      `import { Registry } from "./registry";\nnew Registry().preInvoke(() => new Error("x"));`,
      ['new Error("x")'],
      { extra: { "registry.ts": `export { HookRegistry as Registry } from "@hooklens/runtime";\n` } },
    ],
    ["a runtime that cannot be resolved (import specifier only)", TRAP, ['return new Error("meant to block");'], { runtime: "missing" }],
  ];

  it.each(cases)("flags %s", (_reason, source, texts, options) => {
    expect(flagged(source, options)).toEqual(texts);
  });
});

describe("HL011 service-hook-returns-error: what it leaves alone", () => {
  const clean: [reason: string, source: string][] = [
    ["a hook that throws", `${REGISTRY}registry.preInvoke(() => { throw new Error("x"); });`],
    ["a hook that returns a rejected promise", `${REGISTRY}registry.postInvoke(() => Promise.reject(new Error("x")));`],
    ["a hook that returns a plain value", `${REGISTRY}registry.postInvoke(() => ({ ok: true }));`],
    ["a hook whose return type is unknown", `${REGISTRY}declare const anything: unknown;\nregistry.postInvoke(() => anything);`],
    ["an Error returned by a nested callback", `${REGISTRY}registry.preInvoke(() => { [1].map(() => new Error("x")); });`],
    ["a concise arrow whose body is a call returning an Error (there for its effect)", `${REGISTRY}declare function report(): Error;\nregistry.preInvoke(() => report());`],
    [
      "a look-alike HookRegistry class of the user's own",
      `class HookRegistry { preInvoke(fn: () => unknown) { return fn; } }\nnew HookRegistry().preInvoke(() => new Error("x"));`,
    ],
    ["a hooks key that is not a phase", `import { HookRegistry } from "@hooklens/runtime";\nnew HookRegistry({ hooks: { on_error: () => new Error("x") } as never });`],
    ["a tool post hook (another scope)", `import { AgentSpec } from "@hooklens/runtime";\nnew AgentSpec().post("search", () => new Error("x") as never);`],
  ];

  it.each(clean)("does not flag %s", (_reason, source) => {
    expect(flagged(source)).toEqual([]);
  });
});

describe("HL011 quick fix", () => {
  it("turns `return` into `throw`; the finding is gone and the code still type-checks", () => {
    const [finding] = analyzeFixture(TRAP);
    expect(finding?.fix?.title).toBe("Throw the Error instead of returning it");
    const fixed = applyFix(TRAP, finding!);
    expect(fixed).toContain('if (!event) throw new Error("meant to block");');
    expect(flagged(fixed)).toEqual([]);
    expect(typeErrors(fixed)).toEqual([]);
  });

  it("gives a concise arrow a block that throws", () => {
    const source = `import { HookRegistry } from "@hooklens/runtime";\nexport const r = new HookRegistry({ hooks: { pre_invoke: () => new Error("meant to block") } });\n`;
    const [finding] = analyzeFixture(source);
    const fixed = applyFix(source, finding!);
    expect(fixed).toContain('pre_invoke: () => { throw new Error("meant to block"); }');
    expect(flagged(fixed)).toEqual([]);
    expect(typeErrors(fixed)).toEqual([]);
  });

  it("offers none when the Error is not constructed right there", () => {
    const [finding] = analyzeFixture(`${REGISTRY}const refusal = new Error("x");\nregistry.preInvoke(() => { return refusal; });`).filter((f) => f.code === "HL011");
    expect(finding?.fix).toBeUndefined();
  });
});

describe("HL011 hover", () => {
  it("gives the rule, the explanation and the docs link, not the headline again", () => {
    const findings = analyzeFixture(TRAP);
    const lineStarts = [0, ...[...TRAP.matchAll(/\n/g)].map((m) => m.index + 1)];
    const hover = hoverAt(findings, TRAP.indexOf("new Error"), lineStarts, (code) => `https://example.test/${code}.md`);
    const value = hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
    expect(value).toContain("**HookLens HL011** `service-hook-returns-error`");
    expect(value).toContain("(https://example.test/HL011.md)");
    expect(value).toContain(findings[0]!.explanation);
    expect(value).not.toContain(findings[0]!.message);
    expect(hover?.range).toEqual({ start: { line: 3, character: 14 }, end: { line: 3, character: 49 } });
  });
});
