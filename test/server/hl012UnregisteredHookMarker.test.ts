import { afterEach, describe, expect, it } from "vitest";
import { hoverAt } from "../../server/src/lsp/hover.js";
import { analyzeFixture, disposeFixture } from "../helpers/analyzeFixture.js";

afterEach(disposeFixture);

type Options = Parameters<typeof analyzeFixture>[1];

/** The HL012 findings of a fixture, as the text each one covers. */
const flagged = (source: string, options?: Options) =>
  analyzeFixture(source, options)
    .filter((f) => f.code === "HL012")
    .map((f) => f.text);

const HEADER = `import { HookBus, HookPoint, hook, registerHandler } from "@hooklens/runtime";\nconst bus = new HookBus();\n`;

describe("HL012 unregistered-hook-marker: what it flags", () => {
  it("flags a marked function whose value is dropped, as a warning on the marker, and says how to register it", () => {
    const findings = analyzeFixture(`${HEADER}hook(HookPoint.TOOL_POST)((payload) => console.log(payload));\n`);
    expect(findings).toEqual([expect.objectContaining({ code: "HL012", severity: "warning", text: "hook(HookPoint.TOOL_POST)" })]);
    const [{ message, explanation, fix }] = findings as [(typeof findings)[number]];
    expect(message).toBe("hook(HookPoint.TOOL_POST) marks a handler that nothing registers, so it never runs");
    expect(message.length).toBeLessThanOrEqual(100);
    expect(explanation).toContain("registers nothing");
    expect(explanation).toContain("bus.on(point, fn)");
    expect(explanation).toContain("registerHandler(name, fn)");
    expect(explanation).toContain("export it");
    expect(fix).toBeUndefined();
  });

  const cases: [string, string, string[], Options?][] = [
    ["a local const that is only called", `${HEADER}const audit = hook("tool.post")((p: unknown) => p);\naudit({});`, ['hook("tool.post")']],
    ["a local const that is never used", `${HEADER}const audit = hook(HookPoint.TOOL_ERROR)(() => undefined);`, ["hook(HookPoint.TOOL_ERROR)"]],
    ["a local function declaration marked in place", `${HEADER}function audit() {}\nhook(HookPoint.SESSION_END)(audit);\naudit();`, ["hook(HookPoint.SESSION_END)"]],
    ["a marked function only read (its point, its name) or removed", `${HEADER}import { markedPoint } from "@hooklens/runtime";\nconst h = hook("tool.pre")(() => undefined);\nconsole.log;\nvoid markedPoint(h);\nvoid h.name;\nbus.off("tool.pre", h);`, ['hook("tool.pre")']],
    ["a marker inside a function body", `${HEADER}export function setup() {\n  const h = hook("session.start")(() => undefined);\n  return typeof h;\n}`, ['hook("session.start")']],
    ["a long point expression", `${HEADER}const points = { veryLongNameForTheToolPrePoint: HookPoint.TOOL_PRE } as const;\nhook(points.veryLongNameForTheToolPrePoint)(() => undefined);`, ["hook(points.veryLongNameForTheToolPrePoint)"]],
    ["an aliased import", `import { hook as mark } from "@hooklens/runtime";\nmark("tool.pre")(() => undefined);`, ['mark("tool.pre")']],
    [
      "a re-export through a local module",
      `import { tag } from "./markers";\ntag("tool.post")(() => undefined);`,
      ['tag("tool.post")'],
      { extra: { "markers.ts": `export { hook as tag } from "@hooklens/runtime";\n` } },
    ],
    ["a namespace import", `import * as hl from "@hooklens/runtime";\nhl.hook(hl.HookPoint.TOOL_PRE)(() => undefined);`, ["hl.hook(hl.HookPoint.TOOL_PRE)"]],
    ["a runtime that cannot be resolved (import specifier only)", `${HEADER}hook("tool.pre")(() => undefined);`, ['hook("tool.pre")'], { runtime: "missing" }],
  ];

  it.each(cases)("flags %s", (_label, source, texts, options) => {
    expect(flagged(source, options)).toEqual(texts);
  });

  it("shortens a long point in the headline", () => {
    const [finding] = analyzeFixture(`${HEADER}const points = { veryLongNameForTheToolPrePoint: HookPoint.TOOL_PRE } as const;\nhook(points.veryLongNameForTheToolPrePoint)(() => undefined);`);
    expect(finding?.message).toBe("hook(…) marks a handler that nothing registers, so it never runs");
  });
});

describe("HL012 unregistered-hook-marker: what it leaves alone", () => {
  const clean: [string, string, Options?][] = [
    ["a marked const passed to bus.on", `${HEADER}const audit = hook("tool.post")(() => undefined);\nbus.on("tool.post", audit);`],
    ["a marker written straight into bus.on", `${HEADER}bus.on(HookPoint.TOOL_PRE, hook(HookPoint.TOOL_PRE)(() => undefined));`],
    ["the bus of a Session", `import { Session, hook } from "@hooklens/runtime";\nconst h = hook("tool.post")(() => undefined);\nnew Session().hooks.on("tool.post", h);`],
    ["a function declaration marked, then registered by name", `${HEADER}function audit() {}\nhook(HookPoint.TOOL_POST)(audit);\nregisterHandler("audit", audit);`],
    ["registerHandler given the marker's value", `${HEADER}registerHandler("audit", hook("tool.post")(() => undefined));`],
    ["an exported const", `${HEADER}export const audit = hook("tool.post")(() => undefined);`],
    ["an exported function marked in place", `${HEADER}export function audit() {}\nhook("tool.post")(audit);`],
    ["a name exported later", `${HEADER}const audit = hook("tool.post")(() => undefined);\nexport { audit as onToolPost };`],
    ["a default export", `${HEADER}export default hook("tool.post")(() => undefined);`],
    ["a function handed to an unknown function", `${HEADER}declare function install(fn: unknown): void;\ninstall(hook("tool.post")(() => undefined));`],
    ["a function stored in an exported array", `${HEADER}const audit = hook("tool.post")(() => undefined);\nexport const handlers = [audit];`],
    ["a function stored in an object (shorthand)", `${HEADER}const audit = hook("tool.post")(() => undefined);\nexport default { audit };`],
    ["a function returned to a caller", `${HEADER}export function make() { return hook("tool.post")(() => undefined); }`],
    ["a function that came in as a parameter", `${HEADER}export function mark(fn: () => void) { hook("tool.pre")(fn); }`],
    ["an imported function", `${HEADER}import { audit } from "./audit";\nhook("tool.post")(audit);`, { extra: { "audit.ts": "export function audit() {}\n" } }],
    ["a bound copy registered elsewhere", `${HEADER}const h = hook("tool.post")(() => undefined);\nregisterHandler("bound", h.bind(null));`],
    ["a registration on a bus of the user's own (out of sight)", `${HEADER}const mine = { on: (_p: string, _f: unknown) => undefined };\nconst h = hook("tool.post")(() => undefined);\nmine.on("tool.post", h);`],
    ["a look-alike hook function of the user's own", `function hook(_point: string) { return (fn: () => void) => fn; }\nhook("tool.post")(() => undefined);`],
    ["the marker alone, not applied to a function", `${HEADER}export const marker = hook("tool.post");`],
  ];

  it.each(clean)("does not flag %s", (_label, source, options) => {
    expect(flagged(source, options)).toEqual([]);
  });
});

describe("HL012 hover", () => {
  it("shows the rule under the cursor and links its page", () => {
    const source = `${HEADER}hook("tool.post")(() => undefined);\n`;
    const findings = analyzeFixture(source);
    const lineStarts = [0, ...[...source.matchAll(/\n/g)].map((m) => m.index + 1)];
    const hover = hoverAt(findings, source.indexOf('"tool.post"'), lineStarts, (code) => `https://example.test/${code}.md`);
    const value = hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
    expect(value).toContain("**HookLens HL012** `unregistered-hook-marker`");
    // The editor shows the headline already; the hover adds the explanation.
    expect(value).toContain("registers nothing, and nothing in the runtime looks for marked functions");
    expect(value).not.toContain("marks a handler that nothing registers");
    expect(value).toContain("(https://example.test/HL012.md)");
    expect(hover?.range).toEqual({ start: { line: 2, character: 0 }, end: { line: 2, character: 17 } });
  });
});
