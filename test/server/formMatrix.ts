/**
 * The forms a rule must see through, as tables (issue 32 item 4): every way of importing the
 * runtime (named, aliased, namespace, re-exported through a project module, a project module's
 * default) crossed with every way of passing a handler (inline, a declaration elsewhere in the
 * file, an import, a class member, a chained builder). Each rule case is a trap written once with
 * `R("Name")` for a runtime export and `H` for the handler; its clean look-alike must stay silent.
 */

export interface ImportForm {
  name: string;
  /** The import lines for `names`. */
  header(names: readonly string[]): string;
  /** How the file refers to the runtime export `name`. */
  ref(name: string): string;
  /** Project modules the form needs. */
  files: Record<string, string>;
}

export const IMPORT_FORMS: readonly ImportForm[] = [
  { name: "named", header: (names) => `import { ${names.join(", ")} } from "@hooklens/runtime";`, ref: (n) => n, files: {} },
  { name: "aliased", header: (names) => `import { ${names.map((n) => `${n} as my${n}`).join(", ")} } from "@hooklens/runtime";`, ref: (n) => `my${n}`, files: {} },
  { name: "namespace", header: () => `import * as hl from "@hooklens/runtime";`, ref: (n) => `hl.${n}`, files: {} },
  { name: "re-exported", header: (names) => `import { ${names.join(", ")} } from "./runtimeBarrel.js";`, ref: (n) => n, files: { "runtimeBarrel.ts": `export * from "@hooklens/runtime";\n` } },
  {
    name: "namespace re-exported",
    header: () => `import { hl } from "./runtimeNamespace.js";`,
    ref: (n) => `hl.${n}`,
    files: { "runtimeNamespace.ts": `import * as hl from "@hooklens/runtime";\nexport { hl };\n` },
  },
];

/** A handler as a rule case writes it: its parameter list and body (an arrow's body or a block). */
export interface Handler {
  params: string;
  body: string;
  /** Runtime exports the body names (written with the import form of the file it lands in). */
  uses?: readonly string[];
}

export interface HandlerForm {
  name: string;
  /** The expression passed where the handler goes, declarations added to the file, and project modules. */
  place(handler: Handler, ref: (name: string) => string, header: string): { expression: string; declarations: string; files: Record<string, string> };
}

const block = (body: string): string => (body.trim().startsWith("{") ? body : `{ return ${body}; }`);

export const HANDLER_FORMS: readonly HandlerForm[] = [
  { name: "inline", place: (h) => ({ expression: `(${h.params}) => ${h.body}`, declarations: "", files: {} }) },
  { name: "declaration", place: (h) => ({ expression: "theHandler", declarations: `function theHandler(${h.params}) ${block(h.body)}\n`, files: {} }) },
  {
    name: "imported",
    place: (h, _ref, header) => ({
      expression: "importedHandler",
      declarations: `import { importedHandler } from "./handlerModule.js";\n`,
      files: { "handlerModule.ts": `${header}\nexport function importedHandler(${h.params}) ${block(h.body)}\n` },
    }),
  },
  { name: "class member", place: (h) => ({ expression: "Handlers.handle", declarations: `class Handlers {\n  static handle(${h.params}) ${block(h.body)}\n}\n`, files: {} }) },
];

export interface RuleCase {
  code: string;
  /** Runtime exports the case names. */
  names: readonly string[];
  /** The trap, with the handler `H` (absent: the case takes no handler). */
  trap(R: (name: string) => string, H: string): string;
  handler?: Handler;
  /** The same code written correctly: no finding of `code`. */
  clean: { handler?: Handler; text?: (R: (name: string) => string, H: string) => string };
}

export const RULE_CASES: readonly RuleCase[] = [
  { code: "HL001", names: ["HookBus", "HookPoint"], trap: (R) => `new ${R("HookBus")}().on(${R("HookPoint")}.API_STREAM_CHUNK, () => undefined);`, clean: { text: (R) => `new ${R("HookBus")}().on(${R("HookPoint")}.TOOL_POST, () => undefined);` } },
  { code: "HL002", names: ["CodingToolkit"], trap: (R) => `new ${R("CodingToolkit")}().onError("bash", () => undefined);`, clean: { text: (R) => `new ${R("CodingToolkit")}().post("bash", () => undefined);` } },
  {
    code: "HL003",
    names: ["HookRegistry"],
    trap: (R, H) => `new ${R("HookRegistry")}({ streamHandlers: { text: ${H} } });`,
    handler: { params: "piece: unknown", body: "piece" },
    clean: { handler: { params: "_event: unknown, _type: string, piece: unknown", body: "piece" } },
  },
  {
    code: "HL004",
    names: ["AgentSpec"],
    trap: (R, H) => `async function listFiles(): Promise<string[]> { return ["a"]; }\nnew ${R("AgentSpec")}().pre("list", (_t: string, _a: string, args: object) => args).post("list", ${H}).onError("list", () => undefined);\nvoid listFiles;`,
    handler: { params: "_tool: string, _action: string, _args: object, result: unknown", body: "JSON.stringify(result)" },
    clean: { handler: { params: "_tool: string, _action: string, _args: object, result: unknown", body: "({ result })" } },
  },
  {
    code: "HL005",
    names: ["Session"],
    trap: (R) => `const session = new ${R("Session")}();\nconst branches = ["a", "b"].map(() => session.newBranch());\nsession.includeBranches(branches);\nconst bus = session.hooks;\nbus.on("tool.pre", () => undefined);\nawait branches[0]!.act({ function: "x", arguments: {} });`,
    clean: { text: (R) => `const session = new ${R("Session")}();\nconst bus = session.hooks;\nbus.on("tool.pre", () => undefined);\nconst branch = session.newBranch();\nawait branch.act({ function: "x", arguments: {} });` },
  },
  {
    code: "HL006",
    names: ["HookBus", "HookPoint", "StopHook"],
    trap: (R, H) => `new ${R("HookBus")}().on(${R("HookPoint")}.TOOL_PRE, ${H});`,
    handler: { params: "", body: "{ return new STOP(); }", uses: ["StopHook"] },
    clean: { handler: { params: "", body: "{ return undefined; }" } },
  },
  {
    code: "HL007",
    names: ["HookBus", "HookPoint", "StopHook"],
    trap: (R, H) => `new ${R("HookBus")}().on(${R("HookPoint")}.TOOL_PRE, ${H});`,
    handler: { params: "payload: { toolName: string }", body: `{ if (payload.toolName === "rm") throw new STOP(); }`, uses: ["StopHook"] },
    clean: { handler: { params: "payload: { toolName: string }", body: `{ if (payload.toolName === "rm") throw new Error("no"); }` } },
  },
  { code: "HL008", names: ["HookBus", "HookPoint"], trap: (R) => `new ${R("HookBus")}().on("tool.failed" as ${R("HookPoint")}, () => undefined);`, clean: { text: (R) => `new ${R("HookBus")}().on("tool.post" as ${R("HookPoint")}, () => undefined);` } },
  {
    code: "HL009",
    names: ["HookRegistry"],
    trap: (R) => `const registry = new ${R("HookRegistry")}({ hooks: { pre_invoke: () => undefined } });\nregistry.preInvoke(() => undefined);`,
    clean: { text: (R) => `const registry = new ${R("HookRegistry")}({ hooks: { pre_invoke: () => undefined } });\nregistry.postInvoke(() => undefined);` },
  },
  {
    code: "HL010",
    names: ["HookRegistry"],
    trap: (R, H) => `new ${R("HookRegistry")}().preEventCreateHook(${H});`,
    handler: { params: "eventClass: unknown", body: "{ return { substitute: eventClass }; }" },
    clean: { handler: { params: "_eventClass: unknown", body: "{ return undefined; }" } },
  },
  {
    code: "HL011",
    names: ["HookRegistry"],
    trap: (R, H) => `new ${R("HookRegistry")}().preInvoke(${H});`,
    handler: { params: "event: unknown", body: `{ if (!event) return new Error("meant to block"); }` },
    clean: { handler: { params: "event: unknown", body: `{ if (!event) throw new Error("meant to block"); }` } },
  },
  { code: "HL012", names: ["hook", "HookPoint"], trap: (R) => `${R("hook")}(${R("HookPoint")}.MESSAGE_ADD)((payload: unknown) => console.log(payload));`, clean: { text: (R) => `export const marked = ${R("hook")}(${R("HookPoint")}.MESSAGE_ADD)((payload: unknown) => console.log(payload));` } },
  { code: "HL013", names: ["CodingToolkit"], trap: (R) => `new ${R("CodingToolkit")}().post("bash_tool", () => undefined);`, clean: { text: (R) => `new ${R("CodingToolkit")}().post("bash", () => undefined);` } },
  {
    code: "HL014",
    names: ["GuardrailHook"],
    trap: (R, H) => `new ${R("GuardrailHook")}(${H});`,
    handler: { params: "_stage: unknown, payload: unknown", body: "(payload === 1 ? 0 : true)" },
    clean: { handler: { params: "_stage: unknown, payload: unknown", body: "(payload === 1 ? false : true)" } },
  },
];
