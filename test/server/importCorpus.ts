/**
 * Multi-file projects whose hook modules import their handlers and their bus from sibling
 * modules, in the forms syntax follows (`export function`, `export const f = () => …`,
 * `export { f } from`, `export *`, `export { local as f }`, `export const bus = new HookBus()`)
 * and in those it must leave to the checker (default exports, two `export *`s with one name,
 * shadowing, a module that assigns its export again, `var`, merged declarations, overloads, a
 * `.d.ts`, JavaScript, an import that does not resolve, a barrel the program leaves out).
 * Shared by importedDeclarations.test.ts (each answer) and importedRules.test.ts (each rule).
 */

const RT = '"@hooklens/runtime"';

/** The sibling modules, by path under the project folder. */
export const MODULES: Record<string, string> = {
  // Handlers: no runtime binding is exported, so the program holds this module only as a direct import of an analysed file.
  "lib/handlers.ts": `import type { ToolInvocation } from ${RT};
export function auditTool(payload: unknown) { console.log(payload); }
export const logTool = (payload: unknown) => { console.log(payload); };
export const postHandler = (_tool: unknown, _action: unknown, _args: unknown, _result: unknown) => "rendered";
export const postObject = (_tool: unknown, _action: unknown, args: Record<string, unknown>, _result: unknown) => ({ seen: args["x"] });
export const postNumber = () => 42;
export const postNull = () => null;
export function streamText(_event: null, _type: string, chunk: unknown) { return String(chunk); }
export function deltaOnly(chunk: unknown) { return String(chunk); }
export const check = (_s: unknown, p: unknown) => (p === 1 ? 0 : true);
export const checkBlock = (_s: unknown, p: unknown) => { if (p) return "no"; };
export const fnExpression = function (_chunk: unknown) { return 1; };
export function preCreate(eventClass: unknown) { return { substitute: eventClass }; }
export function blocker(event: unknown) { if (!event) return new Error("x"); }
export function stopper() { return new Error("stop"); }
export function noop(): void {}
function local(_p: unknown) { return undefined; }
export { local as renamedLocal, local };
export class Handlers { static run() { return 1; } }
export const options = { hooks: { pre_invoke: () => undefined } };
export function shadowed(_p: unknown) { function shadowed(_q: unknown) { return 2; } return shadowed(1); }
export let reassigned = (_p: unknown) => 1;
export function swap() { reassigned = () => 2; }
export var viaVar = (_p: unknown) => 1;
export function merged(_p: unknown) { return 1; }
export namespace merged { export const extra = 1; }
export function over(a: string): void;
export function over(a: number): void;
export function over(_a: unknown) {}
export default function (_p: unknown) { return 1; }
void (null as unknown as ToolInvocation);
`,
  "lib/other.ts": "export function auditTool(_p: unknown) { return 2; }\nexport const logTool = () => 3;\n",
  // A handler module that hands the runtime on (it exports a value made from it): the program holds it behind barrels too.
  "lib/hookHandlers.ts": `import { HookBus } from ${RT};
export const ownBus = new HookBus();
export function hookAudit(payload: unknown) { console.log(payload); }
export const hookPost = () => "done";
export function hookBlocker(event: unknown) { if (!event) return new Error("x"); }
`,
  "lib/barrelPlain.ts": 'export { auditTool, logTool as renamedLog } from "./handlers";\n',
  "lib/barrelHooks.ts": 'export { hookAudit, hookPost as post2 } from "./hookHandlers";\n',
  "lib/starHooks.ts": 'export * from "./hookHandlers";\n',
  "lib/chainHooks.ts": 'export { post2 as post3 } from "./barrelHooks";\nexport * from "./starHooks";\n',
  "lib/twoStars.ts": 'export * from "./handlers";\nexport * from "./other";\n',
  "lib/relay.ts": 'import { auditTool, logTool } from "./handlers";\nimport { hookAudit } from "./hookHandlers";\nexport { auditTool as relayed, logTool, hookAudit as relayedHook };\nexport type { logTool as typeOnly };\n',
  "lib/defaults.ts": "const f = (_p: unknown) => 1;\nexport default f;\nexport { f as named };\n",
  // Default exports in each form: a named or anonymous function or class, a name, an expression, merged, relayed.
  "lib/defaultFn.ts": 'export default function auditDefault(_p: unknown) { return "x"; }\n',
  "lib/defaultArrow.ts": "export default (_p: unknown) => 3;\n",
  "lib/defaultClass.ts": "export default class Handler { static run() { return 1; } }\n",
  "lib/defaultMerged.ts": "export default function mergedDefault(_p: unknown) { return 1; }\nnamespace mergedDefault { export const x = 1; }\n",
  "lib/defaultParen.ts": "const h = (_s: unknown, _p: unknown) => 0;\nexport default (h);\n",
  "lib/defaultLet.ts": "let h = (_p: unknown) => 1;\nexport function swap() { h = () => 2; }\nexport default h;\n",
  "lib/defaultImported.ts": 'import { auditTool } from "./handlers";\nexport default auditTool;\n',
  "lib/defaultImportedHook.ts": 'import { hookAudit } from "./hookHandlers";\nexport default hookAudit;\n',
  "lib/hookDefault.ts": `import { HookBus } from ${RT};\nexport const defaultsBus = new HookBus();\nexport default function hookDefault(_p: unknown) { return "y"; }\n`,
  "lib/defaultRelay.ts": 'export { default } from "./hookDefault";\nexport { default as fnDefault } from "./hookDefault";\nexport { default as plainDefault } from "./defaultFn";\n',
  "lib/defaultBus.ts": `import { HookBus } from ${RT};\nexport default new HookBus();\n`,
  "lib/types.d.ts": "export declare function dts(p: unknown): void;\nexport declare const dtsBus: import(" + RT + ").HookBus;\n",
  "lib/jsmod.js": "export function jsHandler(p) { return p; }\n",
  "lib/commonjs.ts": "function cjs(_p: unknown) { return 1; }\nexport = cjs;\n",
  // Buses and registries made in a sibling module.
  "lib/shared.ts": `import { AgentSpec, CodingToolkit, HookBus, HookRegistry, Session } from ${RT};
export const bus = new HookBus();
export const registry = new HookRegistry();
export const hooks = new Session().hooks;
export const session = new Session();
export const sessionHooks = session.hooks;
export const spec = new AgentSpec();
export const toolkit = new CodingToolkit();
export let letBus = new HookBus();
export const typedBus: HookBus = new HookBus();
export const castBus = new HookBus() as unknown as HookRegistry;
export const sessionBus = new Session();
bus.on("tool.pre", () => undefined);
export function readBus() { return letBus; }
`,
  "lib/sharedReassigned.ts": `import { HookBus } from ${RT};
export let bus = new HookBus();
export function replaceBus(): void { bus = new HookBus(); }
`,
  "lib/sharedVar.ts": `import { HookBus } from ${RT};\nexport var bus = new HookBus();\n`,
  "lib/sharedMerged.ts": `import { HookBus } from ${RT};\nexport interface bus { extra: number }\nexport const bus = new HookBus();\n`,
  "lib/sharedSubclass.ts": `import { HookBus } from ${RT};\nclass AuditBus extends HookBus {}\nexport const bus = new AuditBus();\n`,
  "lib/sharedBarrel.ts": 'export { bus as barrelBus, registry as barrelRegistry } from "./shared";\nexport * from "./sharedReassigned";\n',
  "lib/sharedRelay.ts": 'import { bus, spec } from "./shared";\nexport { bus as relayedBus, spec };\n',
  "lib/hooklib.ts": `export { HookBus, HookRegistry } from ${RT};\n`,
  "lib/sharedViaHooklib.ts": 'import { HookBus } from "./hooklib";\nexport const bus = new HookBus();\n',
};

/** Hook modules (each analysed on its own), every rule slot filled with an imported handler or receiver. */
export const MAINS: Record<string, string> = {
  handlers: `import { AgentSpec, CodingToolkit, GuardrailHook, HookBus, HookPoint, HookRegistry, hook } from ${RT};
import { auditTool, logTool, postHandler, postObject, postNumber, postNull, streamText, deltaOnly, check, checkBlock, fnExpression, preCreate, blocker, stopper, noop, renamedLocal, local, Handlers, options } from "./lib/handlers";
const bus = new HookBus();
bus.on(HookPoint.TOOL_POST, auditTool);
bus.on(HookPoint.API_PRE_CALL, logTool);
bus.on(HookPoint.TOOL_PRE, noop);
bus.on(HookPoint.TOOL_PRE, stopper);
bus.on(HookPoint.TOOL_PRE, renamedLocal);
bus.on(HookPoint.TOOL_PRE, local);
const registry = new HookRegistry({ streamHandlers: { text: streamText, delta: deltaOnly, other: fnExpression } });
registry.preEventCreateHook(preCreate);
registry.preInvoke(blocker);
registry.postInvoke(stopper);
new HookRegistry(options).preInvoke(noop);
const spec = new AgentSpec();
spec.post("render", postHandler);
spec.post("object", postObject);
spec.post("number", postNumber);
spec.post("null", postNull);
spec.post("class", Handlers.run);
spec.onError("search", noop);
export const g = new GuardrailHook(check);
export const g2 = new GuardrailHook(checkBlock);
hook(HookPoint.TOOL_POST)(auditTool);
hook(HookPoint.TOOL_POST)(logTool);
new CodingToolkit().post("bash_tool", noop);
`,
  barrels: `import { AgentSpec, GuardrailHook, HookBus, HookPoint, HookRegistry } from ${RT};
import { auditTool, renamedLog } from "./lib/barrelPlain";
import { hookAudit, post2 } from "./lib/barrelHooks";
import { hookPost, hookBlocker, ownBus } from "./lib/starHooks";
import { post3, hookAudit as viaChain } from "./lib/chainHooks";
import { auditTool as ambiguous } from "./lib/twoStars";
import { relayed, logTool, relayedHook, typeOnly } from "./lib/relay";
const bus = new HookBus();
bus.on(HookPoint.TOOL_POST, auditTool);
bus.on(HookPoint.TOOL_POST, renamedLog);
bus.on(HookPoint.TOOL_POST, hookAudit);
bus.on(HookPoint.TOOL_POST, viaChain);
bus.on(HookPoint.TOOL_POST, ambiguous);
bus.on(HookPoint.TOOL_POST, relayed);
bus.on(HookPoint.TOOL_POST, logTool);
bus.on(HookPoint.TOOL_POST, relayedHook);
bus.on(HookPoint.TOOL_POST, typeOnly);
ownBus.on(HookPoint.API_PRE_CALL, hookAudit);
const spec = new AgentSpec();
spec.post("a", post2);
spec.post("b", hookPost);
spec.post("c", post3);
new HookRegistry().preInvoke(hookBlocker);
export const g = new GuardrailHook(hookPost);
`,
  tricky: `import { GuardrailHook, HookBus, HookPoint, HookRegistry, AgentSpec } from ${RT};
import defaultHandler, { shadowed, reassigned, viaVar, merged, over, default as namedDefault, notExported } from "./lib/handlers";
import f, { named } from "./lib/defaults";
import { dts } from "./lib/types";
import { jsHandler } from "./lib/jsmod";
import cjs = require("./lib/commonjs");
import { missing } from "./lib/nowhere";
import * as ns from "./lib/handlers";
const bus = new HookBus();
bus.on(HookPoint.TOOL_PRE, defaultHandler);
bus.on(HookPoint.TOOL_PRE, shadowed);
bus.on(HookPoint.TOOL_PRE, reassigned);
bus.on(HookPoint.TOOL_PRE, viaVar);
bus.on(HookPoint.TOOL_PRE, merged);
bus.on(HookPoint.TOOL_PRE, over);
bus.on(HookPoint.TOOL_PRE, namedDefault);
bus.on(HookPoint.TOOL_PRE, notExported);
bus.on(HookPoint.TOOL_PRE, f);
bus.on(HookPoint.TOOL_PRE, named);
bus.on(HookPoint.TOOL_PRE, dts);
bus.on(HookPoint.TOOL_PRE, jsHandler);
bus.on(HookPoint.TOOL_PRE, cjs);
bus.on(HookPoint.TOOL_PRE, missing);
bus.on(HookPoint.TOOL_PRE, ns.auditTool);
new HookRegistry().preInvoke(merged);
new AgentSpec().post("x", reassigned);
export const g = new GuardrailHook(viaVar);
export function inner() {
  const auditTool = (_p: unknown) => new Error("local");
  bus.on(HookPoint.TOOL_PRE, auditTool);
  new HookRegistry().preInvoke(auditTool);
}
`,
  shared: `import { HookPoint, StopHook, HookBus } from ${RT};
import { bus, registry, hooks, session, sessionHooks, spec, toolkit, letBus, typedBus, castBus, sessionBus } from "./lib/shared";
import { bus as reassignedBus } from "./lib/sharedReassigned";
import { bus as varBus } from "./lib/sharedVar";
import { bus as mergedBus } from "./lib/sharedMerged";
import { bus as subclassBus } from "./lib/sharedSubclass";
import { barrelBus, barrelRegistry, replaceBus } from "./lib/sharedBarrel";
import { relayedBus, spec as relayedSpec } from "./lib/sharedRelay";
import { bus as hooklibBus } from "./lib/sharedViaHooklib";
import { dtsBus } from "./lib/types";
bus.on(HookPoint.API_PRE_CALL, () => undefined);
bus.on(HookPoint.TOOL_PRE, () => { return new StopHook(); });
bus.on("tool.failed" as HookPoint, () => undefined);
hooks.on(HookPoint.API_PRE_CALL, (p) => p);
sessionHooks.on(HookPoint.API_PRE_CALL, () => undefined);
session.hooks.on(HookPoint.API_PRE_CALL, () => undefined);
registry.preEventCreateHook((eventClass) => { return { substitute: eventClass }; });
registry.preInvoke((event) => { if (!event) return new Error("x"); });
registry.preInvoke(() => undefined);
spec.post("render", () => "rendered");
toolkit.post("bash_tool", () => undefined);
letBus.on(HookPoint.API_PRE_CALL, () => undefined);
typedBus.on(HookPoint.API_PRE_CALL, () => undefined);
castBus.preInvoke(() => undefined);
sessionBus.hooks.on(HookPoint.API_PRE_CALL, () => undefined);
reassignedBus.on(HookPoint.API_PRE_CALL, () => undefined);
varBus.on(HookPoint.API_PRE_CALL, () => undefined);
mergedBus.on(HookPoint.API_PRE_CALL, () => undefined);
subclassBus.on(HookPoint.API_PRE_CALL, () => undefined);
barrelBus.on(HookPoint.API_PRE_CALL, () => undefined);
barrelRegistry.preInvoke(() => new Error("y"));
relayedBus.on(HookPoint.API_PRE_CALL, () => undefined);
relayedSpec.post("again", () => 7);
hooklibBus.on(HookPoint.API_PRE_CALL, () => undefined);
dtsBus.on(HookPoint.API_PRE_CALL, () => undefined);
replaceBus();
export async function branchFirst() {
  const branch = session.newBranch();
  await branch.act({ function: "search", arguments: {} });
}
`,
  // What users write most: a shared bus and spec, handlers from a sibling module, each return a literal (no checker question left).
  common: `import { GuardrailHook, HookPoint, HookRegistry } from ${RT};
import { bus, spec, registry } from "./lib/shared";
import { auditTool, logTool, postHandler, postObject, check, preCreate } from "./lib/handlers";
import { hookAudit, post2 } from "./lib/barrelHooks";
bus.on(HookPoint.TOOL_POST, auditTool);
bus.on(HookPoint.API_PRE_CALL, logTool);
bus.on(HookPoint.SESSION_START, hookAudit);
spec.post("render", postHandler);
spec.post("object", postObject);
spec.post("again", post2);
registry.preEventCreateHook(preCreate);
new HookRegistry().preEventCreateHook(preCreate);
export const guard = new GuardrailHook(check);
`,
  defaults: `import { AgentSpec, GuardrailHook, HookBus, HookPoint, HookRegistry } from ${RT};
import auditDefault from "./lib/defaultFn";
import arrow from "./lib/defaultArrow";
import Handler from "./lib/defaultClass";
import mergedDefault from "./lib/defaultMerged";
import paren from "./lib/defaultParen";
import letDefault from "./lib/defaultLet";
import importedPlain from "./lib/defaultImported";
import importedHook from "./lib/defaultImportedHook";
import relayedDefault, { fnDefault, plainDefault } from "./lib/defaultRelay";
import defaultBus from "./lib/defaultBus";
import { default as hookDefault } from "./lib/hookDefault";
const bus = new HookBus();
bus.on(HookPoint.TOOL_PRE, auditDefault);
bus.on(HookPoint.TOOL_PRE, arrow);
bus.on(HookPoint.TOOL_PRE, Handler.run);
bus.on(HookPoint.TOOL_PRE, mergedDefault);
bus.on(HookPoint.TOOL_PRE, letDefault);
bus.on(HookPoint.TOOL_PRE, importedPlain);
bus.on(HookPoint.TOOL_PRE, importedHook);
bus.on(HookPoint.TOOL_PRE, relayedDefault);
bus.on(HookPoint.TOOL_PRE, fnDefault);
bus.on(HookPoint.TOOL_PRE, plainDefault);
bus.on(HookPoint.TOOL_PRE, hookDefault);
const spec = new AgentSpec();
spec.post("a", auditDefault);
spec.post("b", arrow);
spec.post("c", letDefault);
new HookRegistry().preInvoke(mergedDefault);
new HookRegistry({ hooks: { pre_invoke: importedHook } }).preInvoke(relayedDefault);
defaultBus.on(HookPoint.API_PRE_CALL, () => undefined);
export const g = new GuardrailHook(paren);
export const h = new Handler();
`,
  sharedNarrowed: `import { HookPoint, HookBus } from ${RT};
import { bus, registry } from "./lib/shared";
class AuditBus extends HookBus {}
if (bus instanceof AuditBus) bus.on(HookPoint.API_PRE_CALL, () => undefined);
declare function assertBus(x: unknown): asserts x is AuditBus;
assertBus(registry);
registry.preInvoke(() => undefined);
export function f(bus: HookBus) { bus.on(HookPoint.API_PRE_CALL, () => undefined); }
`,
};
