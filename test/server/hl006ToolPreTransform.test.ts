import { afterEach, describe, expect, it } from "vitest";
import { hoverAt } from "../../server/src/lsp/hover.js";
import { analyzeFixture, disposeFixture } from "../helpers/analyzeFixture.js";

afterEach(disposeFixture);

type Options = Parameters<typeof analyzeFixture>[1];

/** The HL006 findings of a fixture, as the text each one covers. */
const flagged = (source: string, options?: Options) =>
  analyzeFixture(source, options)
    .filter((f) => f.code === "HL006")
    .map((f) => f.text);

const HEADER = `import { HookBus, HookPoint } from "@hooklens/runtime";\nconst bus = new HookBus();\n`;

describe("HL006 tool-pre-transform: what it flags", () => {
  it("flags a returned object as a warning on the return statement, with the rule and the alternatives", () => {
    const findings = analyzeFixture(`${HEADER}bus.on(HookPoint.TOOL_PRE, (payload) => {\n  return { ...payload, argsSummary: "redacted" };\n});\n`);
    expect(findings).toEqual([
      expect.objectContaining({ code: "HL006", severity: "warning", text: 'return { ...payload, argsSummary: "redacted" };' }),
    ]);
    const [{ message, explanation, fix }] = findings as [(typeof findings)[number]];
    expect(message).toBe("TOOL_PRE handler returns an object: this never reaches the tool");
    expect(explanation).toContain("can block the call by throwing an Error");
    expect(explanation).toContain("argsSummary");
    expect(explanation).toContain("spec.pre(toolName, fn)");
    expect(explanation).toContain("preprocessor");
    expect(fix).toBeUndefined();
  });

  const cases: [string, string, string[], Options?][] = [
    ["the payload returned", `${HEADER}bus.on(HookPoint.TOOL_PRE, (p) => { return p; });`, ["return p;"]],
    ["an object from a concise arrow", `${HEADER}bus.on(HookPoint.TOOL_PRE, (p) => ({ ...p, argsSummary: "" }));`, ['({ ...p, argsSummary: "" })']],
    ["false returned to block", `${HEADER}bus.on("tool.pre", ({ toolName }) => { if (toolName === "rm") return false; });`, ["return false;"]],
    [
      "an assignment to a payload property",
      `${HEADER}bus.on(HookPoint.TOOL_PRE, (payload) => { (payload as { argsSummary: string }).argsSummary = "x"; });`,
      ['(payload as { argsSummary: string }).argsSummary = "x"'],
    ],
    [
      "an assignment to a nested property of a destructured payload",
      `${HEADER}bus.on(HookPoint.TOOL_PRE, ({ args }: { args: { path: string } }) => { args.path = "/tmp"; });`,
      ['args.path = "/tmp"'],
    ],
    [
      "a nested write through a local taken from the payload",
      `${HEADER}bus.on(HookPoint.TOOL_PRE, (payload: any) => { const args = payload.args; args["x"] += 1; });`,
      ['args["x"] += 1'],
    ],
    ["Object.assign on the payload", `${HEADER}bus.on(HookPoint.TOOL_PRE, async (p) => { Object.assign(p, { argsSummary: "" }); });`, ['Object.assign(p, { argsSummary: "" })']],
    ["delete on the payload", `${HEADER}bus.on(HookPoint.TOOL_PRE, (p: any) => { delete p.args; });`, ["delete p.args"]],
    [
      "a named function declaration",
      `${HEADER}function rewrite(payload: { argsSummary: string }) { payload.argsSummary = "x"; return payload; }\nbus.on(HookPoint.TOOL_PRE, rewrite);`,
      ['payload.argsSummary = "x"', "return payload;"],
    ],
    ["a const arrow handler", `${HEADER}const h = async () => { return { path: "/tmp" }; };\nbus.on(HookPoint.TOOL_PRE, h);`, ['return { path: "/tmp" };']],
    [
      "the hook() marker",
      `import { hook, HookPoint } from "@hooklens/runtime";\nexport const h = hook(HookPoint.TOOL_PRE)((p) => ({ ...p }));`,
      ["({ ...p })"],
    ],
    [
      "a handler registered by name and declared for tool.pre",
      `import { buildSessionBus, registerHandler } from "@hooklens/runtime";\nregisterHandler("rewrite", () => ({ path: "/tmp" }));\nexport const bus = buildSessionBus({ "tool.pre": ["rewrite"] });`,
      ['({ path: "/tmp" })'],
    ],
    [
      "a returned StopHook",
      `import { HookBus, HookPoint, StopHook } from "@hooklens/runtime";\nnew HookBus().on(HookPoint.TOOL_PRE, () => { return new StopHook(); });`,
      ["return new StopHook();"],
    ],
    [
      "aliased imports",
      `import { HookBus as Bus, HookPoint as P } from "@hooklens/runtime";\nnew Bus().on(P.TOOL_PRE, (p) => { return p; });`,
      ["return p;"],
    ],
    [
      "the bus of a Session and a re-export through a local module",
      `import { Session } from "@hooklens/runtime";\nimport { Points } from "./points";\nnew Session().hooks.on(Points.TOOL_PRE, (p) => { return p; });`,
      ["return p;"],
      { extra: { "points.ts": `export { HookPoint as Points } from "@hooklens/runtime";\n` } },
    ],
    [
      "a runtime that cannot be resolved (import specifier only)",
      `${HEADER}bus.on(HookPoint.TOOL_PRE, (p) => { return { ...p }; });`,
      ["return { ...p };"],
      { runtime: "missing" },
    ],
  ];

  it.each(cases)("flags %s", (_label, source, texts, options) => {
    expect(flagged(source, options)).toEqual(texts);
  });

  it("says a returned StopHook does not block, and that blocking takes a thrown Error (a thrown StopHook does not block either)", () => {
    const [finding] = analyzeFixture(`import { HookBus, HookPoint, StopHook } from "@hooklens/runtime";\nnew HookBus().on(HookPoint.TOOL_PRE, () => { return new StopHook(); });`);
    expect(finding?.message).toBe("Returned StopHook is ignored: this TOOL_PRE handler does not block the tool");
    expect(finding?.explanation).toContain("To block the call, throw an Error");
    expect(finding?.explanation).toContain("a thrown StopHook only ends the remaining handlers on this point, and the tool still runs");
    expect(finding?.explanation).not.toMatch(/throw (it|the StopHook)[^.]*to block/i);
  });
});

describe("HL006 tool-pre-transform: what it leaves alone", () => {
  const clean: [string, string, Options?][] = [
    ["a guard that throws to block", `${HEADER}bus.on(HookPoint.TOOL_PRE, ({ toolName }) => { if (toolName === "rm") throw new Error("blocked"); });`],
    ["a thrown StopHook", `import { HookBus, HookPoint, StopHook } from "@hooklens/runtime";\nnew HookBus().on(HookPoint.TOOL_PRE, () => { throw new StopHook(); });`],
    ["a bare return and return undefined", `${HEADER}bus.on(HookPoint.TOOL_PRE, (p) => { if (!p.toolName) return; return undefined; });`],
    ["return null and return void", `${HEADER}bus.on(HookPoint.TOOL_PRE, (p) => { if (p.callId) return null; return void 0; });`],
    ["a returned promise, which the bus awaits", `${HEADER}declare function audit(s: string): Promise<number>;\nbus.on(HookPoint.TOOL_PRE, (p) => { return audit(p.argsSummary); });`],
    ["a concise arrow whose call returns something", `${HEADER}const seen: unknown[] = [];\nbus.on(HookPoint.TOOL_PRE, (p) => seen.push(p));`],
    ["reading the payload only", `${HEADER}bus.on(HookPoint.TOOL_PRE, (p) => { const { toolName } = p; console.log(toolName, p.argsSummary.length); });`],
    ["a copy of the payload that is changed", `${HEADER}bus.on(HookPoint.TOOL_PRE, (p) => { const copy = { ...p }; copy.argsSummary = ""; console.log(copy); });`],
    ["a nested function's own return", `${HEADER}bus.on(HookPoint.TOOL_PRE, (p) => { const f = () => ({ ...p }); console.log(f()); });`],
    ["a TOOL_POST handler that returns something", `${HEADER}bus.on(HookPoint.TOOL_POST, (p) => ({ ...p }));`],
    [
      "a user-defined HookPoint enum and bus",
      `enum HookPoint { TOOL_PRE = "tool.pre" }\nclass HookBus { on(_p: HookPoint, _h: (p: object) => unknown) {} }\nnew HookBus().on(HookPoint.TOOL_PRE, (p) => ({ ...p }));`,
    ],
    [
      "a handler registered by name for another point",
      `import { buildSessionBus, registerHandler } from "@hooklens/runtime";\nregisterHandler("rewrite", () => ({ path: "/tmp" }));\nexport const bus = buildSessionBus({ "tool.post": ["rewrite"] });`,
    ],
    [
      "an AgentSpec pre hook that returns new arguments",
      `import { AgentSpec } from "@hooklens/runtime";\nnew AgentSpec({ name: "a" }).pre("search", (_tool, _action, args) => ({ ...args, limit: 5 }));`,
    ],
  ];

  it.each(clean)("does not flag %s", (_label, source, options) => {
    expect(flagged(source, options)).toEqual([]);
  });
});

describe("HL006 hover", () => {
  it("explains the finding under the cursor and links the rule page", () => {
    const source = `${HEADER}bus.on(HookPoint.TOOL_PRE, (p) => {\n  return p;\n});\n`;
    const findings = analyzeFixture(source);
    const lineStarts = [0, ...[...source.matchAll(/\n/g)].map((m) => m.index + 1)];
    const hover = hoverAt(findings, source.indexOf("return p"), lineStarts, (code) => `https://example.test/${code}.md`);
    const value = hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
    expect(value).toContain("**HookLens HL006** `tool-pre-transform`");
    expect(value).toContain("returns its payload (`p`)");
    expect(value).toContain("(https://example.test/HL006.md)");
    expect(hover?.range).toEqual({ start: { line: 3, character: 2 }, end: { line: 3, character: 11 } });
  });
});
