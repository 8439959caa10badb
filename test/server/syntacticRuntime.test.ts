import { dirname } from "node:path";
import { Node, Project, SyntaxKind, ts, type SourceFile } from "ts-morph";
import { afterAll, describe, expect, it, vi } from "vitest";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import { HookLibraryReach } from "../../server/src/analyzer/engine/reach/hookLibraryReach.js";
import { HookLibraries } from "../../server/src/analyzer/engine/hookLibraries.js";
import { PACKS } from "../../server/src/analyzer/index.js";
import { PackageNames } from "../../server/src/analyzer/engine/reach/packageNames.js";
import { RuntimeResolver } from "../../server/src/analyzer/packs/hooklens/runtimeResolver.js";
import { RUNTIME_PACKAGE } from "../../server/src/analyzer/packs/hooklens/runtimePackage.js";
import { SyntacticRuntime } from "../../server/src/analyzer/packs/hooklens/syntacticRuntime.js";
import { isNamePosition } from "../../server/src/analyzer/engine/soleBinding.js";
import { createFixture } from "../helpers/fixtureProject.js";
import { programBuilt } from "../../server/src/analyzer/engine/tsMorphInternals.js";

const RT = '"@hooklens/runtime"';
const CLASSES = ["HookBus", "Session", "HookRegistry", "AgentSpec"];

/** Modules a case imports from: plain re-exports, renames, `export *`, chains, look-alikes, forms only the checker follows. */
const LIBRARY: Record<string, string> = {
  "lib/plain.ts": `export { HookBus, HookPoint, Session, hook } from ${RT};\n`,
  "lib/renamed.ts": `export { HookBus as Bus, Session as HookBus, HookPoint as Points } from ${RT};\n`,
  "lib/star.ts": `export * from ${RT};\n`,
  "lib/chain.ts": 'export * from "./plain.js";\n',
  "lib/chain2.ts": 'export { HookBus as B2, HookPoint } from "./chain.js";\nexport { Bus } from "./renamed.js";\n',
  "lib/local.ts": 'export class HookBus { on(_p: unknown, _f: () => void): void {} }\nexport enum HookPoint { API_PRE_CALL = "api.pre_call", TOOL_PRE = "tool.pre" }\nexport function hook(_p: unknown) { return (f: () => void) => f; }\n',
  "lib/starLocal.ts": `export * from ${RT};\nexport class HookBus { on(_p: unknown, _f: () => void): void {} }\n`,
  "lib/twoStars.ts": 'export * from "./plain.js";\nexport * from "./local.js";\n',
  "lib/viaLocal.ts": `import { HookBus, HookPoint } from ${RT};\nexport { HookBus, HookPoint };\n`,
  "lib/value.ts": `import { HookBus } from ${RT};\nexport const Alias = HookBus;\n`,
  "lib/default.ts": `export { HookBus as default } from ${RT};\n`,
  "lib/nsOut.ts": `export * as rt from ${RT};\n`,
  "lib/renamedHook.ts": `export { hook as on, hook as set } from ${RT};\n`,
  "lib/defaultHook.ts": `import { hook } from ${RT};\nexport default hook;\n`,
  "lib/equalsHook.ts": `import * as rt from ${RT};\nexport namespace N { export import fire = rt.hook; }\n`,
  "lib/store.ts": `import * as rt from ${RT};\nexport class Store { set(_v: number) { return this; } }\nexport class Derived extends (class { on = rt.hook; }) {}\n`,
};

const USE = "bus.on(HookPoint.API_PRE_CALL, () => undefined);\nbus.on(HookPoint.TOOL_PRE, () => undefined);\n";

/** One file each: the names a resolver is asked about, in every form syntax must either settle exactly or leave to the checker. */
const CASES: Record<string, string> = {
  direct: `import { HookBus, HookPoint, Session, hook, HookRegistry, AgentSpec } from ${RT};
const bus = new HookBus();
${USE}bus.on("tool.pre", () => undefined);
bus.on("not.a.point", () => undefined);
bus.on("tool.failed" as HookPoint, () => undefined);
bus.on("tool.pre" as HookPoint, () => undefined);
bus.on(\`session.end\`, () => undefined);
bus.on(HookPoint.NOT_A_MEMBER, () => undefined);
const session = new Session();
session.hooks.on(HookPoint.SESSION_END, () => undefined);
hook(HookPoint.TOOL_POST)(() => 1);
export const registry = new HookRegistry({});
const spec = new AgentSpec();
spec.post("search", () => ({}));
export function inner() { const local = new HookBus(); local.on(HookPoint.TOOL_POST, () => undefined); }
`,
  aliased: `import { HookBus as Bus, HookPoint as HP, Session as HookBus } from ${RT};
const bus = new Bus();
const other = new HookBus();
bus.on(HP.API_PRE_CALL, () => undefined);
other.hooks.on(HP.TOOL_PRE, () => undefined);
`,
  namespace: `import * as rt from ${RT};
const bus = new rt.HookBus();
bus.on(rt.HookPoint.API_PRE_CALL, () => undefined);
export const same = rt;
`,
  defaultAndTypeOnly: `import Default from ${RT};
import type { HookBus } from ${RT};
import { type Session, HookPoint } from ${RT};
const a = new Default();
const b = new HookBus();
const c = new Session();
a.on(HookPoint.TOOL_PRE, () => undefined);
b.on(HookPoint.TOOL_PRE, () => undefined);
c.hooks;
`,
  shadowParameter: `import { HookBus, HookPoint } from ${RT};
const bus = new HookBus();
${USE}export function f(HookPoint: { API_PRE_CALL: string }) { bus.on(HookPoint.API_PRE_CALL, () => undefined); }
`,
  shadowConstInFunction: `import { HookBus, HookPoint } from ${RT};
export function f() { const HookBus = class { on(_p: unknown, _f: () => void) {} }; const bus = new HookBus(); ${USE} }
const bus = new HookBus();
${USE}`,
  shadowLetInBlock: `import { HookBus, HookPoint } from ${RT};
const bus = new HookBus();
{ let HookPoint = { API_PRE_CALL: "x" }; bus.on(HookPoint.API_PRE_CALL, () => undefined); }
${USE}`,
  shadowVarInFunction: `import { HookBus, HookPoint } from ${RT};
const bus = new HookBus();
export function f() { if (bus) { var HookPoint = { API_PRE_CALL: "x" }; } bus.on(HookPoint.API_PRE_CALL, () => undefined); }
${USE}`,
  shadowFunctionDeclaration: `import { HookBus, HookPoint, hook } from ${RT};
const bus = new HookBus();
export function g() { function hook(_p: unknown) { return (f: () => void) => f; } hook(HookPoint.API_PRE_CALL)(() => 1); }
hook(HookPoint.API_PRE_CALL)(() => 1);
${USE}`,
  shadowClassDeclaration: `import { HookBus, HookPoint } from ${RT};
export function g() { class HookBus { on(_p: unknown, _f: () => void) {} } const bus = new HookBus(); ${USE} }
`,
  shadowCatch: `import { HookBus, HookPoint } from ${RT};
const bus = new HookBus();
try { ${USE} } catch (HookPoint) { bus.on((HookPoint as { API_PRE_CALL: string }).API_PRE_CALL, () => undefined); }
`,
  shadowTypeParameterAndDestructuring: `import { HookBus, HookPoint } from ${RT};
const bus = new HookBus();
export function g<HookBus>(x: HookBus, { HookPoint }: { HookPoint: { API_PRE_CALL: string } }) { bus.on(HookPoint.API_PRE_CALL, () => undefined); return x; }
${USE}`,
  shadowLoopAndArrow: `import { HookBus, HookPoint } from ${RT};
const bus = new HookBus();
for (const HookPoint of [{ API_PRE_CALL: "x" }]) bus.on(HookPoint.API_PRE_CALL, () => undefined);
export const h = (HookBus: typeof Object) => new HookBus();
${USE}`,
  shadowNamedExpressions: `import { HookBus, HookPoint } from ${RT};
export const made = function HookBus() { return 1; };
export const C = class HookPoint {};
const bus = new HookBus();
${USE}`,
  shadowEnumAndNamespace: `import { HookBus } from ${RT};
enum HookPoint { API_PRE_CALL = "api.pre_call" }
namespace HookBus2 { export const HookBus = 1; }
const bus = new HookBus();
${USE}void HookBus2;
`,
  letReassigned: `import { HookBus, HookPoint, Session } from ${RT};
let bus = new HookBus();
bus = new Session() as unknown as HookBus;
${USE}`,
  letNeverWritten: `import { HookBus, HookPoint } from ${RT};
export let bus = new HookBus();
${USE}export function read() { return bus; }
`,
  varRedeclared: `import { HookBus, HookPoint, Session } from ${RT};
var bus = new HookBus();
var bus = new Session() as unknown as HookBus;
${USE}`,
  varOnce: `import { HookBus, HookPoint } from ${RT};
var bus = new HookBus();
${USE}`,
  lookAlikeClass: `import { HookPoint } from ${RT};
class HookBus { on(_p: unknown, _f: () => void) {} }
const bus = new HookBus();
${USE}`,
  narrowed: `import { HookBus, HookPoint, Session } from ${RT};
const bus = new HookBus();
declare function isSession(x: unknown): x is Session;
if (isSession(bus)) bus.on(HookPoint.API_PRE_CALL, () => undefined);
if (bus instanceof Session) bus.on(HookPoint.TOOL_PRE, () => undefined);
`,
  annotatedAndCast: `import { HookBus, HookPoint, Session } from ${RT};
const bus: HookBus = new HookBus();
const odd = new HookBus() as unknown as Session;
const paren = (new HookBus());
${USE}odd.hooks;
paren.on(HookPoint.TOOL_PRE, () => undefined);
`,
  outOfScope: `import { HookBus, HookPoint } from ${RT};
{ const bus = new HookBus(); bus.on(HookPoint.TOOL_PRE, () => undefined); }
// @ts-expect-error: not in scope here
bus.on(HookPoint.API_PRE_CALL, () => undefined);
`,
  otherCallees: `import * as rt from ${RT};
import { HookBus, HookPoint, hook } from ${RT};
class Holder { bus = new HookBus(); ns = rt; register() { this.bus.on(HookPoint.TOOL_PRE, () => undefined); this.ns.hook(HookPoint.TOOL_POST)(() => 1); } }
new Holder().register();
(HookBus as typeof HookBus).name;
(0, hook)(HookPoint.API_PRE_CALL)(() => 1);
rt["hook"](HookPoint.API_PRE_CALL)(() => 1);
new HookBus().on(HookPoint.API_PRE_CALL, () => undefined);
[new HookBus()][0]!.on(HookPoint.API_PRE_CALL, () => undefined);
(hook)(HookPoint.TOOL_PRE)(() => 1);
`,
  moduleForms: `import rtEquals = require("@hooklens/runtime");
declare function require(module: string): unknown;
const rtRequired = require("@hooklens/runtime");
export * from "@hooklens/runtime";
export { HookBus as Bus } from "@hooklens/runtime/live";
void rtEquals; void rtRequired;
`,
  sameNameInTwoScopes: `import { HookPoint, Session } from ${RT};
export function first() {
  const session = new Session();
  const sessionBus = session.hooks;
  sessionBus.on(HookPoint.SESSION_END, () => undefined);
  session.hooks.on(HookPoint.TOOL_PRE, () => undefined);
  return session;
}
export function second() {
  const session = new Session();
  session.hooks.on(HookPoint.TOOL_PRE, () => undefined);
  return session.hooks;
}
`,
  propertiesOfRuntimeClasses: `import { HookPoint, IModel, Session, type IModelOptions } from ${RT};
declare const options: IModelOptions;
const model = new IModel(options);
const registry = model.hookRegistry;
registry.preInvoke(() => undefined);
new Session().hooks.on(HookPoint.TOOL_PRE, () => undefined);
`,
  propertiesNarrowed: `import { HookBus, HookPoint, Session } from ${RT};
class AuditBus extends HookBus {}
const session = new Session();
if (session.hooks instanceof AuditBus) session.hooks.on(HookPoint.TOOL_PRE, () => undefined);
const other = new Session();
declare function check(x: unknown): asserts x is string;
check(other.hooks);
other.hooks.on(HookPoint.TOOL_PRE, () => undefined);
let changing = new Session();
changing.hooks.on(HookPoint.TOOL_PRE, () => undefined);
changing = new Session();
const passed = new Session();
check(passed);
passed.hooks.on(HookPoint.TOOL_PRE, () => undefined);
`,
  receiversSyntaxKnows: `import * as rt from ${RT};
import { HookPoint } from ${RT};
import { Derived, Store } from "./lib/store.js";
import * as renamed from "./lib/renamedHook.js";
class Local { set(_v: number) { return this; } }
class Holder {
  #ns = rt; #renamed = renamed; #map = new Map<string, number>(); #local = new Local();
  run() { this.#ns.hook(HookPoint.TOOL_PRE)(() => 1); this.#renamed.on(HookPoint.TOOL_PRE)(() => 1); this.#map.set("a", 1); this.#local.set(1); }
}
new Holder().run();
new Local().set(1);
new Store().set(1);
new Derived().on(HookPoint.TOOL_PRE)(() => 1);
[1].map(String);
"x".at(0);
new Map<string, number>().set("a", 1);
`,
  viaPlainBarrel: `import { HookBus, HookPoint, hook } from "./lib/plain.js";\nconst bus = new HookBus();\n${USE}hook(HookPoint.TOOL_POST)(() => 1);\n`,
  viaRenamedBarrel: `import { Bus, HookBus, Points } from "./lib/renamed.js";\nconst bus = new Bus();\nconst session = new HookBus();\nbus.on(Points.API_PRE_CALL, () => undefined);\nsession.hooks;\n`,
  viaStarBarrel: `import { HookBus, HookPoint, Nothing } from "./lib/star.js";\nconst bus = new HookBus();\n${USE}void Nothing;\n`,
  viaChains: `import { HookBus, HookPoint } from "./lib/chain.js";\nimport { B2, Bus } from "./lib/chain2.js";\nconst bus = new HookBus();\nconst b2 = new B2();\nconst b3 = new Bus();\n${USE}b2.on(HookPoint.TOOL_PRE, () => undefined);\nb3.on(HookPoint.TOOL_PRE, () => undefined);\n`,
  viaLookAlikeBarrel: `import { HookBus, HookPoint, hook } from "./lib/local.js";\nconst bus = new HookBus();\n${USE}hook(HookPoint.TOOL_PRE)(() => 1);\n`,
  viaStarWithLocal: `import { HookBus, HookPoint } from "./lib/starLocal.js";\nconst bus = new HookBus();\n${USE}`,
  viaTwoStars: `import { HookBus, HookPoint } from "./lib/twoStars.js";\nconst bus = new HookBus();\n${USE}`,
  viaOtherForms: `import { HookBus, HookPoint } from "./lib/viaLocal.js";\nimport { Alias } from "./lib/value.js";\nimport Default from "./lib/default.js";\nimport { rt } from "./lib/nsOut.js";\nconst bus = new HookBus();\nconst a = new Alias();\nconst d = new Default();\n${USE}a.on(rt.HookPoint.TOOL_PRE, () => undefined);\nd.on(HookPoint.TOOL_PRE, () => undefined);\n`,
  renamedThroughReceivers: `import * as renamed from "./lib/renamedHook.js";
import * as withDefault from "./lib/defaultHook.js";
import { N } from "./lib/equalsHook.js";
import { HookPoint } from ${RT};
class Holder {
  ns = renamed; def = withDefault; eq = N; items = new Map<string, number>();
  run() { this.ns.on(HookPoint.TOOL_PRE)(() => 1); this.def.default(HookPoint.TOOL_PRE)(() => 1); this.eq.fire(HookPoint.TOOL_PRE)(() => 1); this.items.set("a", 1); return [...this.items.keys()].filter(Boolean); }
}
const make = () => renamed;
make().set(HookPoint.TOOL_POST)(() => 1);
new Holder().run();
`,
};

/** Export names `is` is asked about (the rules ask it of callees): written names and the names renamed ones stand for. */
const ASKED_NAMES = ["hook", "HookBus", "on", "set", "Bus", "default", "fire", "filter"];

/**
 * What syntax must settle on its own (the rest may go either way, but always to the checker's
 * answer): [case, method, node text, answer].
 */
const SETTLED: [string, "exportName" | "constructedWith" | "hookPointValue", string, string | null][] = [
  ["direct", "exportName", "HookBus", "HookBus"],
  ["direct", "exportName", "hook", "hook"],
  ["direct", "constructedWith", "bus", "HookBus"],
  ["direct", "constructedWith", "session", "Session"],
  ["direct", "constructedWith", "spec", "AgentSpec"],
  ["direct", "constructedWith", "local", "HookBus"],
  ["direct", "hookPointValue", "HookPoint.API_PRE_CALL", "api.pre_call"],
  ["direct", "hookPointValue", '"tool.pre"', "tool.pre"],
  ["direct", "hookPointValue", '"not.a.point"', null],
  ["direct", "hookPointValue", "HookPoint.NOT_A_MEMBER", null],
  ["direct", "hookPointValue", '"tool.failed" as HookPoint', null],
  ["direct", "hookPointValue", '"tool.pre" as HookPoint', null],
  ["aliased", "exportName", "Bus", "HookBus"],
  ["aliased", "constructedWith", "other", "Session"],
  ["aliased", "hookPointValue", "HP.API_PRE_CALL", "api.pre_call"],
  ["namespace", "exportName", "rt.HookBus", "HookBus"],
  ["namespace", "hookPointValue", "rt.HookPoint.API_PRE_CALL", "api.pre_call"],
  ["shadowParameter", "constructedWith", "bus", "HookBus"],
  ["varOnce", "hookPointValue", "HookPoint.TOOL_PRE", "tool.pre"],
  // A `let` read only as a `const` would be (no other module can assign an export).
  ["letNeverWritten", "constructedWith", "bus", "HookBus"],
  // The innermost of several block-scoped declarations of a name decides.
  ["shadowConstInFunction", "constructedWith", "bus", "HookBus"],
  ["shadowLetInBlock", "hookPointValue", "HookPoint.TOOL_PRE", "tool.pre"],
  ["shadowLoopAndArrow", "hookPointValue", "HookPoint.TOOL_PRE", "tool.pre"],
  ["shadowFunctionDeclaration", "exportName", "hook", "hook"],
  ["shadowCatch", "hookPointValue", "HookPoint.TOOL_PRE", "tool.pre"],
  ["shadowNamedExpressions", "constructedWith", "bus", "HookBus"],
  ["sameNameInTwoScopes", "constructedWith", "session", "Session"],
  ["sameNameInTwoScopes", "constructedWith", "sessionBus", "HookBus"],
  ["sameNameInTwoScopes", "constructedWith", "session.hooks", "HookBus"],
  // A property the runtime declares as one of its classes, of an instance made in place or named.
  ["propertiesOfRuntimeClasses", "constructedWith", "registry", "HookRegistry"],
  ["propertiesOfRuntimeClasses", "constructedWith", "new Session().hooks", "HookBus"],
  ["otherCallees", "constructedWith", "new HookBus()", "HookBus"],
  ["viaPlainBarrel", "exportName", "HookBus", "HookBus"],
  ["viaPlainBarrel", "constructedWith", "bus", "HookBus"],
  ["viaPlainBarrel", "hookPointValue", "HookPoint.API_PRE_CALL", "api.pre_call"],
  ["viaRenamedBarrel", "constructedWith", "bus", "HookBus"],
  ["viaRenamedBarrel", "constructedWith", "session", "Session"],
  ["viaRenamedBarrel", "hookPointValue", "Points.API_PRE_CALL", "api.pre_call"],
  ["viaStarBarrel", "exportName", "HookBus", "HookBus"],
  ["viaStarBarrel", "hookPointValue", "HookPoint.TOOL_PRE", "tool.pre"],
  ["viaChains", "constructedWith", "bus", "HookBus"],
  ["viaChains", "constructedWith", "b2", "HookBus"],
  ["viaChains", "constructedWith", "b3", "HookBus"],
  ["viaLookAlikeBarrel", "exportName", "HookBus", null],
  ["viaLookAlikeBarrel", "exportName", "hook", null],
  ["viaStarWithLocal", "exportName", "HookBus", null],
  // A value made from the runtime's class is not an alias of it: the chain ends at the `const`.
  ["viaOtherForms", "exportName", "Alias", null],
  // The checker has no symbol for these callees at all.
  ["otherCallees", "exportName", "(0, hook)", null],
  ["otherCallees", "exportName", "(hook)", null],
  ["otherCallees", "exportName", 'rt["hook"]', null],
];

/** What syntax must leave to the checker: [case, method, node text]. */
const UNSETTLED: [string, "exportName" | "constructedWith" | "hookPointValue", string][] = [
  ["shadowParameter", "hookPointValue", "HookPoint.API_PRE_CALL"],
  ["shadowVarInFunction", "hookPointValue", "HookPoint.TOOL_PRE"],
  ["shadowTypeParameterAndDestructuring", "exportName", "HookBus"],
  ["letReassigned", "constructedWith", "bus"],
  ["varRedeclared", "constructedWith", "bus"],
  ["varOnce", "constructedWith", "bus"],
  ["lookAlikeClass", "constructedWith", "bus"],
  ["narrowed", "constructedWith", "bus"],
  ["annotatedAndCast", "constructedWith", "bus"],
  ["annotatedAndCast", "constructedWith", "paren"],
  ["defaultAndTypeOnly", "exportName", "Default"],
  ["namespace", "exportName", "rt"],
  ["viaTwoStars", "exportName", "HookBus"],
  ["viaOtherForms", "exportName", "HookBus"],
  ["viaOtherForms", "constructedWith", "a"],
  ["viaOtherForms", "exportName", "rt"],
  // Narrowed, or open to it: an instanceof or assertion on the property or the name, a `let` assigned again.
  ["propertiesNarrowed", "constructedWith", "session.hooks"],
  ["propertiesNarrowed", "constructedWith", "other.hooks"],
  ["propertiesNarrowed", "constructedWith", "changing.hooks"],
  ["propertiesNarrowed", "constructedWith", "passed.hooks"],
  ["otherCallees", "exportName", "this.ns.hook"],
  ["otherCallees", "exportName", "new HookBus().on"],
];

/** The corpus on disk, in a ts-morph project, with the project's modules as syntax sees them. */
function corpus(runtime: "resolved" | "missing") {
  const fixture = createFixture(runtime);
  for (const [path, text] of Object.entries(LIBRARY)) fixture.write(path, text);
  for (const [name, text] of Object.entries(CASES)) fixture.write(`${name}.ts`, text);
  const project = new Project({ tsConfigFilePath: fixture.path("tsconfig.json"), skipAddingFilesFromTsConfig: true });
  for (const name of Object.keys(CASES)) project.addSourceFileAtPath(fixture.path(`${name}.ts`));
  const reach = new HookLibraryReach(new HookLibraries(PACKS.map((pack) => pack.library)), project.getCompilerOptions(), () => undefined, fixture.dir);
  return { fixture, project, reach, file: (name: string) => project.getSourceFileOrThrow(fixture.path(`${name}.ts`)) };
}

const corpora: Partial<Record<"resolved" | "missing", ReturnType<typeof corpus>>> = {};
const corpusWith = (runtime: "resolved" | "missing") => (corpora[runtime] ??= corpus(runtime));
afterAll(() => {
  for (const made of Object.values(corpora)) made.fixture.dispose();
});

/** Every question the rules ask, of every node of a file that could be asked about. */
function questions(file: SourceFile): { node: Node; ask: (resolver: RuntimeResolver) => unknown }[] {
  const asked: { node: Node; ask: (resolver: RuntimeResolver) => unknown }[] = [];
  file.forEachDescendant((node) => {
    if (Node.isIdentifier(node) && !isNamePosition(node.compilerNode) && !node.getFirstAncestor((a) => Node.isImportDeclaration(a) || Node.isExportDeclaration(a)))
      asked.push({ node, ask: (r) => r.exportName(node) });
    if (Node.isPropertyAccessExpression(node)) {
      asked.push({ node, ask: (r) => r.exportName(node) });
      const receiver = node.getExpression();
      for (const name of CLASSES) asked.push({ node: receiver, ask: (r) => `${name}: ${r.isInstanceOf(receiver, name)}` });
      asked.push({ node: receiver, ask: (r) => `class: ${r.runtimeClassOf(receiver, CLASSES)}` });
    }
    if (Node.isCallExpression(node) || Node.isNewExpression(node)) {
      const callee = node.getExpression();
      asked.push({ node: callee, ask: (r) => `callee: ${r.exportName(callee)}` });
    }
    if (Node.isCallExpression(node)) for (const argument of node.getArguments()) asked.push({ node: argument, ask: (r) => `point: ${r.hookPointValue(argument)}` });
    if (Node.isStringLiteral(node) && node.getLiteralValue().startsWith("@hooklens/")) asked.push({ node, ask: (r) => `resolves: ${r.resolvesModule(node)}` });
  });
  return asked;
}

describe("syntactic answers are the checker's answers", () => {
  const cases = (["resolved", "missing"] as const).flatMap((runtime) => Object.keys(CASES).map((name) => [runtime, name] as const));
  it.each(cases)("runtime %s: %s", (runtime, name) => {
    const { project, reach, file: fileOf } = corpusWith(runtime);
    const file = fileOf(name);
    const checker = project.getTypeChecker();
    const bySyntax = new RuntimeResolver(checker, { modules: reach });
    const byChecker = new RuntimeResolver(checker);
    const asked = questions(file);
    expect(asked.length).toBeGreaterThan(5);
    const differ = asked
      .map(({ node, ask }) => ({ at: `${node.getStartLineNumber()}: ${node.getText()}`, syntax: ask(bySyntax), checker: ask(byChecker) }))
      .filter((answer) => answer.syntax !== answer.checker);
    expect(differ).toEqual([]);
  });

  // `is` first, on fresh resolvers: an export name already known would answer it without the shortcut.
  it.each(cases)("runtime %s: %s, is(…) of each property and callee", (runtime, name) => {
    const { project, reach, file: fileOf } = corpusWith(runtime);
    const checker = project.getTypeChecker();
    const asked = fileOf(name)
      .getDescendants()
      .filter((node) => Node.isPropertyAccessExpression(node) || Node.isCallExpression(node.getParent()));
    const differ = asked.flatMap((node) =>
      ASKED_NAMES.map((exportName) => ({
        at: `${node.getStartLineNumber()}: ${node.getText()} is ${exportName}`,
        syntax: new RuntimeResolver(checker, { modules: reach }).is(node, exportName),
        checker: new RuntimeResolver(checker).is(node, exportName),
      })).filter((answer) => answer.syntax !== answer.checker),
    );
    expect(differ).toEqual([]);
  });

  it("settles the plain forms without the checker, and leaves shadowed and unusual ones to it", () => {
    const { reach, file: fileOf } = corpusWith("resolved");
    const packages = new PackageNames();
    const syntax = (kase: string, method: string, text: string): unknown => {
      const file = fileOf(kase);
      // The last mention: a use, not the declaration.
      const node = file.getDescendants().findLast((n) => n.getText() === text);
      if (!node) throw new Error(`${kase}: no ${text}`);
      const peek = new SyntacticRuntime((path) => packages.nameFor(dirname(path)) === RUNTIME_PACKAGE, reach);
      return method === "exportName" ? peek.exportName(node) : method === "constructedWith" ? peek.constructedWith(node) : peek.hookPointValue(node);
    };
    expect(SETTLED.map(([kase, method, text]) => [kase, method, text, syntax(kase, method, text)])).toEqual(SETTLED);
    expect(UNSETTLED.map(([kase, method, text]) => [kase, method, text, syntax(kase, method, text)])).toEqual(UNSETTLED.map((row) => [...row, undefined]));
  });
});

describe("a property named otherwise than the export asked about", () => {
  const STORE = `import { HookBus, HookPoint } from ${RT};
export const bus = new HookBus();
bus.on(HookPoint.TOOL_PRE, () => undefined);
export class Store { readonly #items = new Map<number, string>(); add(id: number) { this.#items.set(id, "x"); return [...this.#items.values()].filter(Boolean); } }
new Store().add(1);
declare function store(): Map<number, string>;
store().set(1, "y");
class Sub extends Store {}
new Sub().add(2);
`;
  /** The receivers' property callees, whether each is \`hook\`, and the callees the checker was asked a symbol for. */
  const ask = (extra: string) => {
    const local = createFixture();
    try {
      local.write("renames.ts", `export { hook as set } from ${RT};\n`);
      const path = local.write("store.ts", extra + STORE);
      const project = new Project({ tsConfigFilePath: local.path("tsconfig.json"), skipAddingFilesFromTsConfig: true });
      const file = project.addSourceFileAtPath(path);
      const checker = project.getTypeChecker();
      const symbols = vi.spyOn(checker, "getSymbolAtLocation");
      const resolver = new RuntimeResolver(checker, {});
      const callees = file.getDescendantsOfKind(SyntaxKind.CallExpression).map((call) => call.getExpression()).filter((callee) => !Node.isIdentifier(callee.getFirstChild()));
      const asked: string[] = [];
      const answers = callees.filter(Node.isPropertyAccessExpression).map((callee) => {
        const before = symbols.mock.calls.length;
        const answer = resolver.is(callee, "hook");
        if (symbols.mock.calls.length > before) asked.push(callee.getText());
        return [callee.getText(), answer];
      });
      return { answers, asked };
    } finally {
      local.dispose();
    }
  };

  it("is settled without the checker when no alias in the program renames anything to its name", () => {
    const { answers, asked } = ask("");
    expect(answers).toEqual([
      ["this.#items.set", false],
      ["[...this.#items.values()].filter", false],
      ["this.#items.values", false],
      ["new Store().add", false],
      ["store().set", false],
      ["new Sub().add", false],
    ]);
    expect(asked).toEqual([]);
  });

  it("goes to the checker when an alias in the program renames something to its name, unless syntax knows the receiver's members", () => {
    const { answers, asked } = ask(`import "./renames.js";\nexport class Plain { set(_v: number) {} }\nnew Plain().set(1);\n`);
    expect(answers.every(([, answer]) => answer === false)).toBe(true);
    // A private Map field, an array literal and a class extending nothing hold no aliases; a call's result may.
    expect(asked).toEqual(["store().set"]);
  });
});

describe("a hook file whose questions syntax settles", () => {
  it("is analysed without building a program or a type checker, and with the same findings", () => {
    const local = createFixture();
    try {
      const path = local.write("hooks.ts", `import { HookBus, HookPoint } from ${RT};\nexport const bus = new HookBus();\n${USE}bus.on("tool.post", () => undefined);\n`);
      const analysis = new AnalysisProject(local.dir);
      const file = analysis.setText(path, ts.sys.readFile(path)!);
      const built = () => programBuilt(file.getProject());
      const codes = analysis.analyze(path).findings.map((f) => f.code);
      expect(codes).toEqual(["HL001"]);
      expect(built()).toBe(false);
      // The same question through the checker builds it (so the observation above can fail).
      file.getDescendantsOfKind(SyntaxKind.NewExpression)[0]!.getType();
      expect(built()).toBe(true);
    } finally {
      local.dispose();
    }
  });
});
