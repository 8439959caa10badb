import { afterEach, describe, expect, it } from "vitest";
import { hoverAt } from "../../server/src/lsp/hover.js";
import { nearestPoint } from "../../server/src/analyzer/packs/hooklens/rules/hl008UnknownHookPoint.js";
import { analyzeFixture, applyFix, disposeFixture } from "../helpers/analyzeFixture.js";
import { typeErrors } from "../helpers/typeCheckFixture.js";

afterEach(disposeFixture);

type Options = Parameters<typeof analyzeFixture>[1];

/** The HL008 findings of a fixture, as the text each one covers and its headline. */
const flagged = (source: string, options?: Options) =>
  analyzeFixture(source, options)
    .filter((f) => f.code === "HL008")
    .map((f) => `${f.text} | ${f.message}`);

const HEADER = `import { HookBus, HookPoint } from "@hooklens/runtime";\nconst bus = new HookBus();\n`;
const TRAP = `${HEADER}bus.on("TOOL_PRE" as HookPoint, () => undefined);\n`;

describe("HL008 unknown-hook-point: what it flags", () => {
  it("flags the literal as an error saying what throws, with the nearest valid point and the accepted forms", () => {
    const findings = analyzeFixture(TRAP);
    expect(findings).toEqual([expect.objectContaining({ code: "HL008", severity: "error", text: '"TOOL_PRE"' })]);
    const [{ message, explanation }] = findings as [(typeof findings)[number]];
    expect(message).toBe('Unknown hook point "TOOL_PRE": bus.on() throws (did you mean "tool.pre"?)');
    expect(explanation).toContain("InvalidValueError");
    expect(explanation).toContain('The nearest valid point is "tool.pre" (HookPoint.TOOL_PRE).');
    expect(explanation).toContain("Valid values: api.post_call, api.pre_call,");
  });

  const cases: [reason: string, source: string, found: string[], options?: Options][] = [
    [
      "a point no rewording saves: no suggestion",
      `${HEADER}bus.on("tool.failed" as HookPoint, () => undefined);`,
      ['"tool.failed" | Unknown hook point "tool.failed": bus.on() throws'],
    ],
    [
      "emit, which rejects rather than throws",
      `${HEADER}void bus.emit("tool_pre" as HookPoint);`,
      ['"tool_pre" | Unknown hook point "tool_pre": the promise bus.emit() returns rejects (did you mean "tool.pre"?)'],
    ],
    ["off, handlersFor and blockingEmit", `${HEADER}const h = () => undefined;\nbus.off("session.started" as never, h);\nbus.handlersFor("x" as never);\nvoid bus.blockingEmit("x" as never);`, [
      '"session.started" | Unknown hook point "session.started": bus.off() throws (did you mean "session.start"?)',
      '"x" | Unknown hook point "x": bus.handlersFor() throws',
      '"x" | Unknown hook point "x": the promise bus.blockingEmit() returns rejects',
    ]],
    ["the hook() marker", `import { hook } from "@hooklens/runtime";\nexport const h = hook("message.added" as never)(() => undefined);`, ['"message.added" | Unknown hook point "message.added": hook() throws (did you mean "message.add"?)']],
    [
      "keys of a buildSessionBus map, plain, quoted and computed",
      `import { buildSessionBus } from "@hooklens/runtime";\nexport const bus = buildSessionBus({ TOOL_PRE: ["a"], "tool.fail": ["b"], ["branch.created"]: ["c"], "tool.post": ["d"] });`,
      [
        'TOOL_PRE | Unknown hook point "TOOL_PRE": buildSessionBus() throws (did you mean "tool.pre"?)',
        '"tool.fail" | Unknown hook point "tool.fail": buildSessionBus() throws',
        '"branch.created" | Unknown hook point "branch.created": buildSessionBus() throws (did you mean "branch.create"?)',
      ],
    ],
    [
      "a DEFAULT_HOOKS-shaped map held in a const and given to loadHooksForAgent",
      `import { loadHooksForAgent } from "@hooklens/runtime";\nconst hooks = { "session.begin": ["a"] };\nexport const loaded = loadHooksForAgent(hooks);`,
      ['"session.begin" | Unknown hook point "session.begin": loadHooksForAgent() throws'],
    ],
    ["the bus of a Session", `import { HookPoint, Session } from "@hooklens/runtime";\nnew Session().hooks.on("tool-pre" as HookPoint, () => undefined);`, ['"tool-pre" | Unknown hook point "tool-pre": bus.on() throws (did you mean "tool.pre"?)']],
    [
      "aliased imports and a re-export",
      `import { Bus } from "./bus";\nnew Bus().on("TOOL_ERROR" as never, () => undefined);`,
      ['"TOOL_ERROR" | Unknown hook point "TOOL_ERROR": bus.on() throws (did you mean "tool.error"?)'],
      { extra: { "bus.ts": `export { HookBus as Bus } from "@hooklens/runtime";\n` } },
    ],
    ["a runtime that cannot be resolved (import specifier only)", TRAP, ['"TOOL_PRE" | Unknown hook point "TOOL_PRE": bus.on() throws (did you mean "tool.pre"?)'], { runtime: "missing" }],
  ];

  it.each(cases)("flags %s", (_reason, source, found, options) => {
    expect(flagged(source, options)).toEqual(found);
  });
});

describe("HL008 unknown-hook-point: what it leaves alone", () => {
  const clean: [reason: string, source: string][] = [
    ["valid values and members", `${HEADER}bus.on("tool.pre", () => undefined);\nbus.on(HookPoint.TOOL_POST, () => undefined);\nvoid bus.emit("session.start");`],
    ["valid loader keys", `import { HookPoint, buildSessionBus } from "@hooklens/runtime";\nexport const bus = buildSessionBus({ "tool.pre": [], [HookPoint.MESSAGE_ADD]: [] });`],
    ["a point that is not a literal", `${HEADER}declare const point: HookPoint;\nbus.on(point, () => undefined);`],
    ["a look-alike bus", `class HookBus { on(_p: string, _h: () => void) {} }\nnew HookBus().on("tool.failed", () => undefined);`],
    ["an emitter's on() with an event name", `import { EventEmitter } from "node:events";\nnew EventEmitter().on("tool.failed", () => undefined);`],
    [
      "a check that the runtime rejects it (assert.throws, expect)",
      `import assert from "node:assert/strict";\nimport { buildSessionBus } from "@hooklens/runtime";\nassert.throws(() => buildSessionBus({ TOOL_PRE: ["a"] }), /Unknown hook point/);\ndeclare function expect(x: unknown): { toThrow(): void };\n${HEADER.split("\n")[1]}\nexpect(() => bus.on("nope" as never, () => undefined)).toThrow();`,
    ],
    ["a look-alike hook() function", `function hook(_p: string) { return (f: () => void) => f; }\nhook("tool.failed")(() => undefined);`],
  ];

  it.each(clean)("does not flag %s", (_reason, source) => {
    expect(flagged(source)).toEqual([]);
  });
});

describe("HL008 nearest point", () => {
  it.each([
    ["TOOL_PRE", "tool.pre"],
    ["tool_pre", "tool.pre"],
    ["toolpre", "tool.pre"],
    ["session.started", "session.start"],
    ["artifact_created", "artifact.created"],
  ])("suggests %s → %s", (text, value) => {
    expect(nearestPoint(text)?.value).toBe(value);
  });

  it.each(["tool.failed", "session.begin", "api.call", "x"])("suggests nothing for %s (no single clear winner)", (text) => {
    expect(nearestPoint(text)).toBeNull();
  });
});

describe("HL008 quick fix", () => {
  it("replaces the literal with the nearest value; the finding is gone and the code type-checks", () => {
    const source = `${HEADER}bus.on("TOOL_PRE" as HookPoint, () => undefined);\nbus.on('tool_post' as HookPoint, () => undefined);\n`;
    let fixed = source;
    for (const finding of analyzeFixture(source).filter((f) => f.code === "HL008").reverse()) fixed = applyFix(fixed, finding);
    expect(fixed).toContain(`bus.on("tool.pre" as HookPoint`);
    expect(fixed).toContain(`bus.on('tool.post' as HookPoint`);
    expect(flagged(fixed)).toEqual([]);
    expect(typeErrors(fixed)).toEqual([]);
  });

  it("quotes a plain loader key", () => {
    const source = `import { buildSessionBus } from "@hooklens/runtime";\nexport const bus = buildSessionBus({ TOOL_PRE: [] });\n`;
    const [finding] = analyzeFixture(source);
    expect(finding?.fix?.title).toBe('Use "tool.pre"');
    const fixed = applyFix(source, finding!);
    expect(fixed).toContain('buildSessionBus({ "tool.pre": [] })');
    expect(flagged(fixed)).toEqual([]);
  });

  it("offers none without a single clear nearest point", () => {
    const [finding] = analyzeFixture(`${HEADER}bus.on("tool.failed" as HookPoint, () => undefined);`);
    expect(finding?.fix).toBeUndefined();
  });
});

describe("HL008 hover", () => {
  it("gives the rule, the explanation and the docs link, not the headline again", () => {
    const findings = analyzeFixture(TRAP);
    const lineStarts = [0, ...[...TRAP.matchAll(/\n/g)].map((m) => m.index + 1)];
    const hover = hoverAt(findings, TRAP.indexOf("TOOL_PRE"), lineStarts, (code) => `https://example.test/${code}.md`);
    const value = hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
    expect(value).toContain("**HookLens HL008** `unknown-hook-point`");
    expect(value).toContain(findings[0]!.explanation);
    expect(value).not.toContain(findings[0]!.message);
    expect(value).toContain("(https://example.test/HL008.md)");
    expect(hover?.range).toEqual({ start: { line: 2, character: 7 }, end: { line: 2, character: 17 } });
  });
});
