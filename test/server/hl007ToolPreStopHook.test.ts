import { afterEach, describe, expect, it } from "vitest";
import { hoverAt } from "../../server/src/lsp/hover.js";
import { analyzeFixture, applyFix, disposeFixture } from "../helpers/analyzeFixture.js";
import { typeErrors } from "../helpers/typeCheckFixture.js";

afterEach(disposeFixture);

type Options = Parameters<typeof analyzeFixture>[1];

/** The HL007 findings of a fixture, as the text each one covers. */
const flagged = (source: string, options?: Options) =>
  analyzeFixture(source, options)
    .filter((f) => f.code === "HL007")
    .map((f) => f.text);

const HEADER = `import { HookBus, HookPoint, StopHook } from "@hooklens/runtime";\nconst bus = new HookBus();\n`;
const GUARD = `${HEADER}bus.on(HookPoint.TOOL_PRE, ({ toolName }) => {\n  if (toolName === "deleteFile") throw new StopHook("deleteFile is not allowed");\n});\n`;

describe("HL007 tool-pre-stop-hook: what it flags", () => {
  it("flags the throw as a warning with a short headline, the runtime's reason and what to throw instead", () => {
    const findings = analyzeFixture(GUARD);
    expect(findings).toEqual([expect.objectContaining({ code: "HL007", severity: "warning", text: 'throw new StopHook("deleteFile is not allowed");' })]);
    const [{ message, explanation }] = findings as [(typeof findings)[number]];
    expect(message).toBe("StopHook thrown in a TOOL_PRE handler only ends the chain; the tool still runs");
    expect(message.length).toBeLessThanOrEqual(100);
    expect(explanation).toContain("swallows a StopHook");
    expect(explanation).toContain("act() then invokes the tool");
    expect(explanation).toContain("To block, throw an Error");
  });

  const cases: [reason: string, source: string, texts: string[], options?: Options][] = [
    ["a bare StopHook in a string-point registration", `${HEADER}bus.on("tool.pre", () => { throw new StopHook(); });`, ["throw new StopHook();"]],
    ["an async handler (the rejection is swallowed the same way)", `${HEADER}bus.on(HookPoint.TOOL_PRE, async () => { await Promise.resolve(); throw new StopHook("no"); });`, ['throw new StopHook("no");']],
    [
      "a subclass of StopHook (the bus checks instanceof)",
      `${HEADER}class Denied extends StopHook {}\nbus.on(HookPoint.TOOL_PRE, () => { throw new Denied("no"); });`,
      ['throw new Denied("no");'],
    ],
    ["a StopHook held in a variable", `${HEADER}const stop = new StopHook("no");\nbus.on(HookPoint.TOOL_PRE, () => { throw stop; });`, ["throw stop;"]],
    [
      "a helper in the same file that throws it, flagged at the call",
      `${HEADER}function deny(reason: string): never { throw new StopHook(reason); }\nbus.on(HookPoint.TOOL_PRE, ({ toolName }) => { if (toolName === "rm") deny("rm is blocked"); });`,
      ['deny("rm is blocked")'],
    ],
    [
      "a helper that reaches the throw through another helper",
      `${HEADER}const fail = (m: string) => { throw new StopHook(m); };\nconst deny = (m: string) => fail(m);\nbus.on(HookPoint.TOOL_PRE, () => { deny("no"); });`,
      ['deny("no")'],
    ],
    ["a named handler function", `${HEADER}function guard() { throw new StopHook("no"); }\nbus.on(HookPoint.TOOL_PRE, guard);`, ['throw new StopHook("no");']],
    ["the hook() marker", `import { hook, HookPoint, StopHook } from "@hooklens/runtime";\nexport const g = hook(HookPoint.TOOL_PRE)(() => { throw new StopHook("no"); });`, ['throw new StopHook("no");']],
    [
      "a handler named for tool.pre in buildSessionBus",
      `import { buildSessionBus, registerHandler, StopHook } from "@hooklens/runtime";\nregisterHandler("guard", () => { throw new StopHook("no"); });\nexport const bus = buildSessionBus({ "tool.pre": ["guard"] });`,
      ['throw new StopHook("no");'],
    ],
    ["the bus of a Session", `import { HookPoint, Session, StopHook } from "@hooklens/runtime";\nnew Session().hooks.on(HookPoint.TOOL_PRE, () => { throw new StopHook("no"); });`, ['throw new StopHook("no");']],
    [
      "aliased imports",
      `import { HookBus as Bus, HookPoint as P, StopHook as Stop } from "@hooklens/runtime";\nnew Bus().on(P.TOOL_PRE, () => { throw new Stop("no"); });`,
      ['throw new Stop("no");'],
    ],
    [
      "a namespace import",
      `import * as hl from "@hooklens/runtime";\nnew hl.HookBus().on(hl.HookPoint.TOOL_PRE, () => { throw new hl.StopHook("no"); });`,
      ['throw new hl.StopHook("no");'],
    ],
    [
      "a StopHook re-exported through a local module",
      `import { HookBus, HookPoint } from "@hooklens/runtime";\nimport { Halt } from "./errors";\nnew HookBus().on(HookPoint.TOOL_PRE, () => { throw new Halt("no"); });`,
      ['throw new Halt("no");'],
      { extra: { "errors.ts": `export { StopHook as Halt } from "@hooklens/runtime";\n` } },
    ],
    ["a runtime that cannot be resolved (import specifier only)", GUARD, ['throw new StopHook("deleteFile is not allowed");'], { runtime: "missing" }],
  ];

  it.each(cases)("flags %s", (_reason, source, texts, options) => {
    expect(flagged(source, options)).toEqual(texts);
  });
});

describe("HL007 tool-pre-stop-hook: what it leaves alone", () => {
  const clean: [reason: string, source: string, options?: Options][] = [
    ["a TOOL_PRE guard that throws an Error (it blocks)", `${HEADER}bus.on(HookPoint.TOOL_PRE, () => { throw new Error("no"); });`],
    [
      "an Error subclass that is not a StopHook",
      `${HEADER}class Denied extends Error {}\nbus.on(HookPoint.TOOL_PRE, () => { throw new Denied("no"); });`,
    ],
    ["StopHook at TOOL_POST, where ending the chain is all anyone can want", `${HEADER}bus.on(HookPoint.TOOL_POST, () => { throw new StopHook(); });`],
    ["StopHook at session.start", `${HEADER}bus.on("session.start", () => { throw new StopHook(); });`],
    ["a StopHook thrown inside a nested callback (runs some other time)", `${HEADER}bus.on(HookPoint.TOOL_PRE, () => { setTimeout(() => { throw new StopHook(); }); });`],
    ["a helper that throws an Error", `${HEADER}function deny(m: string): never { throw new Error(m); }\nbus.on(HookPoint.TOOL_PRE, () => deny("no"));`],
    [
      "a look-alike StopHook class of the user's own",
      `import { HookBus, HookPoint } from "@hooklens/runtime";\nclass StopHook extends Error {}\nnew HookBus().on(HookPoint.TOOL_PRE, () => { throw new StopHook("no"); });`,
    ],
    [
      "a look-alike bus and enum",
      `import { StopHook } from "@hooklens/runtime";\nenum HookPoint { TOOL_PRE = "tool.pre" }\nclass HookBus { on(_p: HookPoint, _h: () => void) {} }\nnew HookBus().on(HookPoint.TOOL_PRE, () => { throw new StopHook(); });`,
    ],
    [
      "a StopHook handler registered by name for another point",
      `import { buildSessionBus, registerHandler, StopHook } from "@hooklens/runtime";\nregisterHandler("stop", () => { throw new StopHook(); });\nexport const bus = buildSessionBus({ "tool.post": ["stop"] });`,
    ],
  ];

  it.each(clean)("does not flag %s", (_reason, source, options) => {
    expect(flagged(source, options)).toEqual([]);
  });
});

describe("HL007 quick fix", () => {
  it("throws an Error with the same message instead; the finding is gone and the code still type-checks", () => {
    const [finding] = analyzeFixture(GUARD);
    expect(finding?.fix?.title).toBe("Throw an Error to block the tool call");
    const fixed = applyFix(GUARD, finding!);
    expect(fixed).toContain('throw new Error("deleteFile is not allowed");');
    expect(flagged(fixed)).toEqual([]);
    expect(typeErrors(fixed)).toEqual([]);
  });

  it("keeps a template-literal message and an aliased import's text", () => {
    const source = `import { HookBus as Bus, HookPoint, StopHook as Stop } from "@hooklens/runtime";\nnew Bus().on(HookPoint.TOOL_PRE, ({ toolName }) => { throw new Stop(\`\${toolName} blocked\`); });\n`;
    const [finding] = analyzeFixture(source);
    const fixed = applyFix(source, finding!);
    expect(fixed).toContain("throw new Error(`${toolName} blocked`);");
    expect(flagged(fixed)).toEqual([]);
    expect(typeErrors(fixed)).toEqual([]);
  });

  const noFix: [reason: string, source: string][] = [
    ["no message to carry over", `${HEADER}bus.on(HookPoint.TOOL_PRE, () => { throw new StopHook(); });`],
    ["a subclass, whose constructor may take other arguments", `${HEADER}class Denied extends StopHook {}\nbus.on(HookPoint.TOOL_PRE, () => { throw new Denied("no"); });`],
    ["a StopHook in a variable", `${HEADER}const stop = new StopHook("no");\nbus.on(HookPoint.TOOL_PRE, () => { throw stop; });`],
    ["a helper that other code may call too", `${HEADER}function deny(m: string): never { throw new StopHook(m); }\nbus.on(HookPoint.TOOL_PRE, () => deny("no"));`],
  ];

  it.each(noFix)("offers none for %s", (_reason, source) => {
    const findings = analyzeFixture(source).filter((f) => f.code === "HL007");
    expect(findings).toHaveLength(1);
    expect(findings[0]!.fix).toBeUndefined();
  });
});

describe("HL007 hover", () => {
  it("gives the rule, the explanation and the docs link, not the headline again", () => {
    const findings = analyzeFixture(GUARD);
    const lineStarts = [0, ...[...GUARD.matchAll(/\n/g)].map((m) => m.index + 1)];
    const hover = hoverAt(findings, GUARD.indexOf("new StopHook("), lineStarts, (code) => `https://example.test/${code}.md`);
    const value = hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
    expect(value).toContain("**HookLens HL007** `tool-pre-stop-hook`");
    expect(value).toContain("(https://example.test/HL007.md)");
    expect(value).toContain(findings[0]!.explanation);
    expect(value).not.toContain(findings[0]!.message);
    expect(hover?.range).toEqual({ start: { line: 3, character: 33 }, end: { line: 3, character: 81 } });
  });
});
