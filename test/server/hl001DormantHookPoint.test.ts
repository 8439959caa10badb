import { afterEach, describe, expect, it } from "vitest";
import { analyzeFixture, disposeFixture } from "../helpers/analyzeFixture.js";

afterEach(disposeFixture);

/** Analyses `main.ts` (plus any extra files) and returns each HL001 finding with the text it covers. */
// Other rules see these fixtures too (a marker nobody registers is HL012's), so only HL001 counts here.
const analyze = (...args: Parameters<typeof analyzeFixture>) => analyzeFixture(...args).filter((f) => f.code === "HL001");

describe("HL001 dormant-hook-point", () => {
  it("flags bus.on with a dormant enum member, as a warning on the point argument", () => {
    const findings = analyze(`
      import { HookBus, HookPoint } from "@hooklens/runtime";
      const bus = new HookBus();
      bus.on(HookPoint.API_PRE_CALL, () => undefined);
      bus.on(HookPoint.TOOL_PRE, () => undefined);
    `);
    expect(findings).toEqual([expect.objectContaining({ code: "HL001", severity: "warning", text: "HookPoint.API_PRE_CALL" })]);
  });

  it("headlines the point and the consequence, and explains that nothing emits it with the model's service hooks as the way out", () => {
    const [finding] = analyze(`
      import { HookBus, HookPoint } from "@hooklens/runtime";
      new HookBus().on(HookPoint.API_POST_CALL, () => undefined);
    `);
    expect(finding?.message).toBe("HookPoint.API_POST_CALL is dormant: this handler never runs");
    expect(finding?.explanation).toContain('Nothing in the runtime emits "api.post_call"');
    expect(finding?.explanation).toContain("postInvoke");
  });

  it("gives stream-handler advice for API_STREAM_CHUNK and pre-invoke advice for API_PRE_CALL", () => {
    const findings = analyze(`
      import { hook, HookPoint } from "@hooklens/runtime";
      hook(HookPoint.API_STREAM_CHUNK)(() => undefined);
      hook(HookPoint.API_PRE_CALL)(() => undefined);
    `);
    expect(findings.map((f) => f.explanation)).toEqual([expect.stringContaining("streamHandlers"), expect.stringContaining("preInvoke")]);
  });

  it("flags bus.on on an instance of a user's HookBus subclass, through every level of it", () => {
    const findings = analyze(`
      import { HookBus, HookPoint } from "@hooklens/runtime";
      class AuditBus extends HookBus {}
      class StrictAuditBus extends AuditBus {}
      const audit = new AuditBus();
      audit.on(HookPoint.API_PRE_CALL, () => undefined);
      function strict(): StrictAuditBus { return new StrictAuditBus(); }
      strict().on(HookPoint.ARTIFACT_CREATED, () => undefined);
      class Unrelated { on(_point: string, _handler: () => void): void {} }
      new Unrelated().on("api.pre_call", () => undefined);
    `);
    expect(findings.map((f) => f.text)).toEqual(["HookPoint.API_PRE_CALL", "HookPoint.ARTIFACT_CREATED"]);
  });

  it("flags the exact string values, through bus.on and hook()", () => {
    const findings = analyze(`
      import { HookBus, hook } from "@hooklens/runtime";
      const bus = new HookBus();
      bus.on("api.stream_chunk", () => undefined);
      const marked = hook("artifact.created")(() => undefined);
      bus.on("tool.post", () => undefined);
      void marked;
    `);
    expect(findings.map((f) => f.text)).toEqual(['"api.stream_chunk"', '"artifact.created"']);
  });

  it("flags a constant that holds a dormant value", () => {
    const findings = analyze(`
      import { HookBus, HookPoint } from "@hooklens/runtime";
      const point = HookPoint.ARTIFACT_CREATED;
      const literal = "api.pre_call";
      const bus = new HookBus();
      bus.on(point, () => undefined);
      bus.on(literal, () => undefined);
    `);
    expect(findings.map((f) => f.text)).toEqual(["point", "literal"]);
  });

  it("follows aliased imports", () => {
    const findings = analyze(`
      import { HookBus as Bus, HookPoint as P, hook as mark } from "@hooklens/runtime";
      new Bus().on(P.API_PRE_CALL, () => undefined);
      mark(P.ARTIFACT_CREATED)(() => undefined);
    `);
    expect(findings.map((f) => f.text)).toEqual(["P.API_PRE_CALL", "P.ARTIFACT_CREATED"]);
  });

  it("follows a re-export through a local module", () => {
    const findings = analyze(
      `
      import { Bus, Points } from "./hooks";
      const bus: Bus = new Bus();
      bus.on(Points.API_POST_CALL, () => undefined);
    `,
      { extra: { "hooks.ts": `export { HookBus as Bus, HookPoint as Points } from "@hooklens/runtime";\n` } },
    );
    expect(findings.map((f) => f.text)).toEqual(["Points.API_POST_CALL"]);
  });

  it("follows a namespace import", () => {
    const findings = analyze(`
      import * as hl from "@hooklens/runtime";
      const bus = new hl.HookBus();
      bus.on(hl.HookPoint.API_STREAM_CHUNK, () => undefined);
    `);
    expect(findings.map((f) => f.text)).toEqual(["hl.HookPoint.API_STREAM_CHUNK"]);
  });

  it("sees a bus through its declared type (a parameter), not only through `new`", () => {
    const findings = analyze(`
      import type { HookBus } from "@hooklens/runtime";
      export function wire(bus: HookBus) {
        bus.on("api.pre_call", () => undefined);
      }
    `);
    expect(findings.map((f) => f.text)).toEqual(['"api.pre_call"']);
  });

  it("does not flag a local enum or class that merely shares the runtime's names", () => {
    const findings = analyze(`
      enum HookPoint { API_PRE_CALL = "api.pre_call" }
      class HookBus { on(_point: string, _fn: () => void) {} }
      function hook(_point: string) { return (fn: () => void) => fn; }
      new HookBus().on(HookPoint.API_PRE_CALL, () => undefined);
      new HookBus().on("api.pre_call", () => undefined);
      hook("artifact.created")(() => undefined);
    `);
    expect(findings).toEqual([]);
  });

  it("does not flag an emitter with an `on` method that is not a HookBus", () => {
    const findings = analyze(`
      import { EventEmitter } from "node:events";
      new EventEmitter().on("api.pre_call", () => undefined);
    `);
    expect(findings).toEqual([]);
  });

  it("does not flag the seven points that do emit", () => {
    const findings = analyze(`
      import { HookBus, HookPoint } from "@hooklens/runtime";
      const bus = new HookBus();
      for (const p of [HookPoint.SESSION_START, HookPoint.SESSION_END, HookPoint.BRANCH_CREATE, HookPoint.TOOL_PRE, HookPoint.TOOL_POST, HookPoint.TOOL_ERROR, HookPoint.MESSAGE_ADD]) bus.on(p, () => undefined);
      bus.on(HookPoint.SESSION_START, () => undefined);
      bus.on("message.add", () => undefined);
    `);
    expect(findings).toEqual([]);
  });

  it("still recognises the runtime when the package cannot be resolved", () => {
    const findings = analyze(
      `
      import { HookBus, HookPoint, hook, buildSessionBus } from "@hooklens/runtime";
      const bus = new HookBus();
      bus.on(HookPoint.API_PRE_CALL, () => undefined);
      hook("artifact.created")(() => undefined);
      buildSessionBus({ "api.post_call": ["log_api_metrics"], "tool.pre": [] });
    `,
      { runtime: "missing" },
    );
    expect(findings.map((f) => f.text)).toEqual(["HookPoint.API_PRE_CALL", '"artifact.created"', '"api.post_call"']);
  });

  it("keeps analysing a file with syntax errors", () => {
    const findings = analyze(`
      import { HookBus, HookPoint } from "@hooklens/runtime";
      const bus = new HookBus();
      bus.on(HookPoint.API_PRE_CALL, () => undefined);
      function broken( {
        return ;;; }}
    `);
    expect(findings.map((f) => f.text)).toEqual(["HookPoint.API_PRE_CALL"]);
  });

  const LOADERS = `import { buildSessionBus, loadHooksForAgent, HookBus, HookPoint } from "@hooklens/runtime";\n`;
  type Extra = Record<string, string>;

  /** [why, main.ts, texts flagged, other files]. */
  const table: [string, string, string[], Extra?][] = [
    ["a loader table held in a const in the same file is followed to its keys", `${LOADERS}const HOOKS = { "api.pre_call": ["log"], "tool.pre": [] };\nbuildSessionBus(HOOKS);`, ['"api.pre_call"']],
    [
      "a const table with a computed HookPoint key, written `as const`, given to loadHooksForAgent",
      `${LOADERS}const HOOKS = { [HookPoint.ARTIFACT_CREATED]: ["store"] } as const;\nloadHooksForAgent(HOOKS);`,
      ["[HookPoint.ARTIFACT_CREATED]"],
    ],
    [
      "a table imported from another module, reported on the argument that brings it in",
      `import { buildSessionBus } from "@hooklens/runtime";\nimport { HOOKS } from "./hooks";\nbuildSessionBus(HOOKS);`,
      ["HOOKS"],
      { "hooks.ts": `export const HOOKS = { "api.post_call": ["metrics"], "tool.post": ["audit"] };\n` },
    ],
    ["one table given to two loaders, reported once", `${LOADERS}const HOOKS = { "api.stream_chunk": ["x"] };\nbuildSessionBus(HOOKS);\nloadHooksForAgent(HOOKS);`, ['"api.stream_chunk"']],
    ["a const point declared with the wide HookPoint type", `${LOADERS}const point: HookPoint = HookPoint.API_PRE_CALL;\nnew HookBus().on(point, () => undefined);`, ["point"]],
    [
      "a point imported as a string const from another module",
      `import { HookBus } from "@hooklens/runtime";\nimport { POINT } from "./points";\nnew HookBus().on(POINT as never, () => undefined);`,
      ["POINT as never"],
      { "points.ts": `export const POINT: string = "api.stream_chunk";\n` },
    ],
    ["a let table, which may change before the call", `${LOADERS}let HOOKS = { "api.pre_call": ["log"] };\nHOOKS = { "api.pre_call": [] };\nbuildSessionBus(HOOKS);`, []],
    ["a const table whose points all emit", `${LOADERS}const HOOKS = { "tool.pre": ["guard"], [HookPoint.SESSION_END]: ["close"] };\nbuildSessionBus(HOOKS);`, []],
    ["a table made by a function call", `${LOADERS}declare function hooksFor(agent: string): Record<string, string[]>;\nbuildSessionBus(hooksFor("coder"));`, []],
  ];

  it.each(table)("%s", (_why, source, texts, extra) => {
    expect(analyze(source, { extra: extra ?? {} }).map((f) => f.text)).toEqual(texts);
  });
});
