/**
 * One trap per line for every rule: a small `main.ts` that must produce at least one finding with
 * that code. The catalogue test analyses them all and holds every finding to the message format
 * (a headline of at most 100 characters, an explanation). A new rule adds one line here.
 * Names are long on purpose where a rule quotes user text in its headline.
 */
export type Trap = readonly [code: string, source: string];

const RUNTIME = `from "@hooklens/runtime";\n`;

export const TRAP_CORPUS: readonly Trap[] = [
  ["HL001", `import { HookBus, HookPoint } ${RUNTIME}new HookBus().on(HookPoint.API_STREAM_CHUNK, () => undefined);`],
  ["HL002", `import { CodingToolkit } ${RUNTIME}new CodingToolkit().onError("a_tool_with_a_remarkably_long_and_descriptive_name_indeed", () => undefined);`],
  ["HL003", `import { HookRegistry } ${RUNTIME}new HookRegistry({ streamHandlers: { text: (theIncomingStreamChunkWithAVeryLongName: unknown) => theIncomingStreamChunkWithAVeryLongName } });`],
  ["HL003", `import { HookRegistry } ${RUNTIME}new HookRegistry({ streamHandlers: { text: (chunk: any, _type: string, _params: unknown) => chunk.text } });`],
  ["HL004", `import { AgentSpec } ${RUNTIME}new AgentSpec().post("editor", (_t, _a, theArgumentsOfTheCallThatAreAlwaysEmpty) => { console.log(theArgumentsOfTheCallThatAreAlwaysEmpty); return { "a long property name": 1, "another long property name": "x" } as const; });`],
  ["HL004", `import { AgentSpec } ${RUNTIME}new AgentSpec().post("editor", async () => ["a", "b"] as ["a", "b"] | "a very long string literal type that goes on and on");`],
  ["HL005", `import { Session } ${RUNTIME}const theApplicationSessionWithAnExtremelyLongName = new Session();\nconst b = theApplicationSessionWithAnExtremelyLongName.newBranch();\ntheApplicationSessionWithAnExtremelyLongName.hooks.on("tool.pre", () => undefined);\nawait b.act({ function: "x", arguments: {} });`],
  ["HL006", `import { HookBus, HookPoint, StopHook } ${RUNTIME}new HookBus().on(HookPoint.TOOL_PRE, () => { return new StopHook(); });`],
  ["HL006", `import { HookBus, HookPoint } ${RUNTIME}new HookBus().on(HookPoint.TOOL_PRE, (p: any) => { p.argumentsSummaryThatSomeoneWantsToRewrite = "x"; delete p.args; return { ...p }; });`],
  ["HL007", `import { HookBus, HookPoint, StopHook } ${RUNTIME}new HookBus().on(HookPoint.TOOL_PRE, ({ toolName }) => { if (toolName === "rm") throw new StopHook(); });`],
  ["HL008", `import { HookBus, HookPoint } ${RUNTIME}new HookBus().on("tool.failed" as HookPoint, () => undefined);`],
  ["HL009", `import { HookRegistry } ${RUNTIME}const registry = new HookRegistry({ hooks: { pre_invoke: () => undefined } });\nregistry.preInvoke(() => undefined);`],
  ["HL010", `import { HookRegistry } ${RUNTIME}new HookRegistry().preEventCreateHook((eventClass) => {\n  return { substitute: eventClass };\n});`],
  ["HL011", `import { HookRegistry } ${RUNTIME}new HookRegistry().preInvoke((event) => {\n  if (!event) return new Error("meant to block");\n});`],
  ["HL012", `import { hook, HookPoint } ${RUNTIME}hook(HookPoint.TOOL_POST)((payload) => console.log(payload));`],
  ["HL013", `import { CodingToolkit } ${RUNTIME}new CodingToolkit().post("bash_tool", () => undefined);`],
  ["HL013", `import { CodingToolkit } ${RUNTIME}new CodingToolkit().securityPre("a_very_long_custom_tool_name_that_someone_wrote_tool", () => undefined);`],
  ["HL014", `import { GuardrailHook } ${RUNTIME}new GuardrailHook((_s, p) => (p === 1 ? 0 : p === 2 ? [] : true));`],
  ["HL014", `import { GuardrailHook } ${RUNTIME}new GuardrailHook((_s, p) => (p === 1 ? { aVeryLongPropertyName: 1, anotherVeryLongPropertyName: "x" } : p === 2 ? new Map<string, number>() : true));`],
  ["HL015", `import { Executor, Hook, type Approval, type ToolBackend, type ToolInvocation } ${RUNTIME}declare const tools: ToolBackend;\nconst edit: Approval = (inv) => ({ arguments: { ...inv.call.arguments, dryRun: true } });\nclass Counter extends Hook {\n  count = 0;\n  beforeTool(_inv: ToolInvocation) {\n    this.count++;\n  }\n}\nexport const executor = new Executor(tools, { hooks: [new Counter()], approval: edit });`],
];
