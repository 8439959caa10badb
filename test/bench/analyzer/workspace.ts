import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const RUNTIME_PACKAGE_DIR = fileURLToPath(new URL("../../../runtime", import.meta.url));

/** A generated workspace on disk: paths of a runtime-using and a plain module to edit, and a cleanup. */
export interface BenchWorkspace {
  dir: string;
  fileCount: number;
  lineCount: number;
  /** Modules that import the runtime (directly or through the project's own barrel), by index. */
  runtimeFiles: string[];
  /** The hook modules among them whose rules need the type checker (their bus is a `let`: see `hookModule`). */
  typedRuntimeFiles: string[];
  /** The hook modules among them that import their bus and some handlers from sibling modules (`src/wiring.ts`, `src/handlers.ts`). */
  importingRuntimeFiles: string[];
  plainFiles: string[];
  dispose(): void;
}

/** Every tenth module uses the runtime; the rest is ordinary application code. */
const RUNTIME_EVERY = 10;

/** Hook modules number k = i / RUNTIME_EVERY with k % 9 === 5 keep their bus in a `let` they assign again (see `hookModule`). */
function isTypedHookModule(i: number): boolean {
  return (i / RUNTIME_EVERY) % 9 === 5;
}

/**
 * Hook modules with k % 9 === 4 import their bus and some handlers from sibling modules, as users
 * often write them (none of the modules the bench edits otherwise, or starts with, is one).
 */
function isImportingHookModule(i: number): boolean {
  return (i / RUNTIME_EVERY) % 9 === 4;
}

/** The sibling modules importing hook modules take their bus and handlers from. */
const SIBLINGS: Record<string, string> = {
  "wiring.ts": ["// The application's one hook bus, shared by its hook modules.", 'import { HookBus } from "@hooklens/runtime";', "export const bus = new HookBus();", ""].join("\n"),
  "handlers.ts": [
    "// Handlers the hook modules register, kept apart from the wiring.",
    'import type { ToolInvocation } from "@hooklens/runtime";',
    "const audit: unknown[] = [];",
    "export function auditTool(payload: unknown): void { audit.push(payload); }",
    "export const logTool = (payload: unknown) => { audit.push(payload); };",
    "export const markChecked = (_tool: string, _action: string, _args: unknown, result: unknown) => ({ ...(result as object), checked: true });",
    "export function describeCall(invocation: ToolInvocation): string { return invocation.call.function; }",
    "",
  ].join("\n"),
};

/**
 * Writes `fileCount` TypeScript modules of about 180 lines each into a fresh folder, with imports
 * between them (each module imports up to three earlier ones), 10% of them hook modules. Half of
 * those import the runtime through the project's own barrel (`src/hooklib.ts` re-exports it), so
 * the re-export path is exercised. The runtime is installed as a package (a link to this
 * repository's runtime and its built `.d.ts`), as a user has it; `runtime: "sources"` maps it to
 * the runtime's sources instead (tests of the workspace itself, which need no build).
 */
export function createBenchWorkspace(fileCount = 1000, options: { runtime?: "package" | "sources" } = {}): BenchWorkspace {
  const dir = mkdtempSync(join(tmpdir(), "hooklens-bench-ws-"));
  const compilerOptions: Record<string, unknown> = {
    strict: true,
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "Bundler",
    skipLibCheck: true,
    noEmit: true,
  };
  if (options.runtime === "sources") compilerOptions["paths"] = { "@hooklens/runtime": [join(RUNTIME_PACKAGE_DIR, "src", "index.ts")] };
  else {
    if (!existsSync(join(RUNTIME_PACKAGE_DIR, "dist", "index.d.ts"))) throw new Error("runtime/dist is missing: run `npm run build` first");
    mkdirSync(join(dir, "node_modules", "@hooklens"), { recursive: true });
    symlinkSync(RUNTIME_PACKAGE_DIR, join(dir, "node_modules", "@hooklens", "runtime"), "dir");
  }
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions }, null, 2));
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "hooklib.ts"), `export { ${RUNTIME_IMPORTS} } from "@hooklens/runtime";\n`);
  for (const [name, text] of Object.entries(SIBLINGS)) writeFileSync(join(dir, "src", name), text);
  const runtimeFiles: string[] = [];
  const typedRuntimeFiles: string[] = [];
  const importingRuntimeFiles: string[] = [];
  const plainFiles: string[] = [];
  let lineCount = 1;
  for (let i = 0; i < fileCount; i++) {
    const path = join(dir, "src", `${moduleName(i)}.ts`);
    const text = i % RUNTIME_EVERY === 0 ? hookModule(i) : plainModule(i);
    writeFileSync(path, text);
    lineCount += text.split("\n").length;
    (i % RUNTIME_EVERY === 0 ? runtimeFiles : plainFiles).push(path);
    if (i % RUNTIME_EVERY === 0 && isTypedHookModule(i)) typedRuntimeFiles.push(path);
    if (i % RUNTIME_EVERY === 0 && isImportingHookModule(i)) importingRuntimeFiles.push(path);
  }
  // Written well before the editor starts, as a user's files are: the server keeps no import list
  // of a file modified in the last few seconds.
  const longAgo = Date.now() / 1000 - 3600;
  const siblings = Object.keys(SIBLINGS).map((name) => join(dir, "src", name));
  for (const path of [join(dir, "src", "hooklib.ts"), ...siblings, ...runtimeFiles, ...plainFiles]) utimesSync(path, longAgo, longAgo);
  return {
    dir,
    fileCount: fileCount + 1 + siblings.length,
    lineCount,
    runtimeFiles,
    typedRuntimeFiles,
    importingRuntimeFiles,
    plainFiles,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The bench's keystroke-sized changes, each keeping the file valid. In a hook module, a number
 * typed into arithmetic (an edit the analyzer can prove neutral: its findings are reused, moved)
 * and a string typed into code (which the analyzer must analyse afresh); in a plain module, a
 * number typed into one line. Each replaces text that occurs once in its module.
 */
export const BENCH_EDITS = {
  runtimeNumber: (text: string, n: number) => text.replace("let counter = ", `let counter = ${n} + `),
  runtimeString: (text: string, n: number) => text.replace("const seen: string[] = [];", `const seen: string[] = ["edit ${n}"];`),
  plainNumber: (text: string, n: number) => text.replace("  let total = 0;", `  let total = ${n};`),
} as const;

function moduleName(i: number): string {
  return `m${String(i).padStart(4, "0")}`;
}

/** Up to three earlier plain modules: a chain plus a couple of long-range links. */
function plainImports(i: number): number[] {
  return [i - 1, i - 7, i - 31].filter((j) => j >= 0 && j % RUNTIME_EVERY !== 0);
}

function importLines(i: number): string[] {
  return plainImports(i).map((j) => `import { Store${j}, compute${j} } from "./${moduleName(j)}.js";`);
}

/** Ordinary code: an interface, a generic store class, helpers with loops and branches. */
function plainBody(i: number, helpers: number): string[] {
  const deps = plainImports(i);
  const lines = [
    `export interface Item${i} { id: number; name: string; tags: string[]; score?: number; meta: Record<string, unknown> }`,
    `export type Keyed${i}<T> = { [K in keyof T as \`get\${Capitalize<string & K>}\`]: () => T[K] };`,
    `export class Store${i}<T extends { id: number }> {`,
    `  readonly #items = new Map<number, T>();`,
    `  add(item: T): this { this.#items.set(item.id, item); return this; }`,
    `  get(id: number): T | undefined { return this.#items.get(id); }`,
    `  filter(predicate: (item: T) => boolean): T[] { return [...this.#items.values()].filter(predicate); }`,
    `  get size(): number { return this.#items.size; }`,
    `}`,
  ];
  for (let h = 0; h < helpers; h++) {
    const dep = deps[h % Math.max(1, deps.length)];
    lines.push(
      `export function compute${h === 0 ? i : `${i}_${h}`}(items: readonly Item${i}[], factor = ${h + 1}): number {`,
      `  let total = 0;`,
      `  for (const item of items) {`,
      `    if (item.tags.includes("skip")) continue;`,
      `    const weight = item.score ?? item.name.length;`,
      `    total += weight * factor;`,
      `  }`,
      dep === undefined ? `  const extra = 0;` : `  const extra = compute${dep}([], ${h});`,
      `  return total + extra;`,
      `}`,
      `export const summary${i}_${h} = (items: Item${i}[]): Record<string, number> => {`,
      `  const out: Record<string, number> = {};`,
      `  for (const { name, tags } of items) out[name] = tags.length + ${h};`,
      `  return out;`,
      `};`,
    );
  }
  if (deps[0] !== undefined) lines.push(`export const linked${i} = new Store${deps[0]}<{ id: number }>().add({ id: ${i} });`);
  return lines;
}

function plainModule(i: number): string {
  return [`// Module ${i}: ordinary application code.`, ...importLines(i), "", ...plainBody(i, 11), ""].join("\n");
}

/** What hook modules import from the runtime (directly or through the project's barrel). */
const RUNTIME_IMPORTS =
  "AgentSpec, CodingToolkit, Executor, GuardrailHook, Hook, HookBus, HookPoint, HookRegistry, Session, StopHook, hook, " +
  "type Approval, type ToolBackend, type ToolInvocation";

/**
 * A hook module: registrations on a bus (one dormant point), a registry with stream handlers, tool
 * hooks, a session, and one trap for each rule (HL001–HL015), so every rule has something to look
 * at and report in every edit the bench measures (`HOOK_MODULE_FINDINGS` lists what is found).
 * Syntax settles every question the rules ask of such a module; in a "typed" one the bus is a
 * `let` that a function assigns again, so whether `bus.on(…)` registers on a HookBus is the type
 * checker's to say (the bench measures both). An "importing" one takes its bus and half its
 * handlers from sibling modules (`SIBLINGS`), which syntax follows too.
 */
function hookModule(i: number): string {
  const viaBarrel = (i / RUNTIME_EVERY) % 2 === 1;
  const source = viaBarrel ? "./hooklib.js" : "@hooklens/runtime";
  const importing = isImportingHookModule(i);
  const handlers = Array.from({ length: 12 }, (_, h) => {
    const point = h === 5 ? "API_PRE_CALL" : ["TOOL_PRE", "TOOL_POST", "SESSION_START", "MESSAGE_ADD"][h % 4];
    if (importing && h % 2 === 0) return `bus.on(HookPoint.${point}, ${h % 4 === 0 ? "auditTool" : "logTool"});`;
    return `bus.on(HookPoint.${point}, (payload) => { counter += ${h}; seen.push(String(payload)); });`;
  });
  const bus = isTypedHookModule(i)
    ? [`export let bus = new HookBus();`, `export function replaceBus(): void { bus = new HookBus(); }`]
    : importing
      ? [`export { bus };`]
      : [`export const bus = new HookBus();`];
  return [
    `// Module ${i}: hook code.`,
    `import { ${RUNTIME_IMPORTS} } from "${source}";`,
    ...(importing ? [`import { bus } from "./wiring.js";`, `import { auditTool, logTool, markChecked } from "./handlers.js";`] : []),
    ...importLines(i),
    "",
    `let counter = ${i};`,
    `const seen: string[] = [];`,
    ...bus,
    ...handlers,
    `export const marked${i} = hook(HookPoint.TOOL_POST)(() => counter);`,
    `export const registry${i} = new HookRegistry({`,
    `  streamHandlers: {`,
    `    text: (_event: null, _type: string, chunk: unknown) => seen.push(String(chunk)),`,
    `    delta: (chunk: unknown) => seen.push(String(chunk)),`,
    `  },`,
    `});`,
    `const spec = new AgentSpec();`,
    importing ? `spec.post("search", markChecked);` : `spec.post("search", (_tool, _action, _args, result) => ({ ...(result as object), checked: true }));`,
    `spec.onError("search", () => undefined);`,
    `export function startSession${i}(): Session {`,
    `  const session = new Session();`,
    `  const hooks = session.hooks;`,
    `  hooks.on(HookPoint.SESSION_END, () => { counter = 0; });`,
    `  session.newBranch();`,
    `  return session;`,
    `}`,
    ...ruleTraps(i),
    ...plainBody(i, 8),
    "",
  ].join("\n");
}

/** The codes the analyzer reports in every hook module, in the order they appear. */
export const HOOK_MODULE_FINDINGS = [
  "HL001", "HL003", "HL002", "HL004", "HL006", "HL007", "HL008", "HL009", "HL010", "HL011", "HL012", "HL013", "HL014", "HL015", "HL005",
] as const;

/**
 * One trap of each rule that HL001–HL003 above do not already show (the traps the rules' own
 * tests use, adapted), in code that type-checks: each must be found (see `HOOK_MODULE_FINDINGS`).
 */
function ruleTraps(i: number): string[] {
  return [
    `spec.post("render${i}", () => "rendered");`,
    `bus.on(HookPoint.TOOL_PRE, () => { return new StopHook(); });`,
    `bus.on(HookPoint.TOOL_PRE, ({ toolName }) => { if (toolName === "rm") throw new StopHook(); });`,
    `bus.on("tool.failed" as HookPoint, () => undefined);`,
    `const phases${i} = new HookRegistry({ hooks: { pre_invoke: () => undefined } });`,
    `phases${i}.preInvoke(() => undefined);`,
    `new HookRegistry().preEventCreateHook((eventClass) => {`,
    `  return { substitute: eventClass };`,
    `});`,
    `new HookRegistry().preInvoke((event) => {`,
    `  if (!event) return new Error("meant to block");`,
    `});`,
    `hook(HookPoint.TOOL_POST)((payload) => seen.push(String(payload)));`,
    `new CodingToolkit().post("bash_tool", () => undefined);`,
    // TypeScript rejects this check too; JavaScript code or an \`any\` gets it through.
    `// @ts-expect-error: a check that can return a number`,
    `export const guardrail${i} = new GuardrailHook((_s, p) => (p === 1 ? 0 : true));`,
    `declare const backend${i}: ToolBackend;`,
    `const approve${i}: Approval = (inv) => ({ arguments: { ...inv.call.arguments, dryRun: true } });`,
    `class Counter${i} extends Hook {`,
    `  calls = 0;`,
    `  override beforeTool(_inv: ToolInvocation) {`,
    `    this.calls++;`,
    `  }`,
    `}`,
    `export const executor${i} = new Executor(backend${i}, { hooks: [new Counter${i}()], approval: approve${i} });`,
    `export async function branchFirst${i}(): Promise<void> {`,
    `  const session = new Session();`,
    `  const branch = session.newBranch();`,
    `  session.hooks.on(HookPoint.TOOL_PRE, () => undefined);`,
    `  await branch.act({ function: "search", arguments: {} });`,
    `}`,
  ];
}
