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
  plainFiles: string[];
  dispose(): void;
}

/** Every tenth module uses the runtime; the rest is ordinary application code. */
const RUNTIME_EVERY = 10;

/**
 * Writes `fileCount` TypeScript modules of about 180 lines each into a fresh folder, with imports
 * between them (each module imports up to three earlier ones), 10% of them hook modules. Half of
 * those import the runtime through the project's own barrel (`src/hooklib.ts` re-exports it), so
 * the re-export path is exercised. The runtime is installed as a package (a link to this
 * repository's runtime and its built `.d.ts`), as a user has it.
 */
export function createBenchWorkspace(fileCount = 1000): BenchWorkspace {
  const dir = mkdtempSync(join(tmpdir(), "hooklens-bench-ws-"));
  if (!existsSync(join(RUNTIME_PACKAGE_DIR, "dist", "index.d.ts"))) throw new Error("runtime/dist is missing: run `npm run build` first");
  mkdirSync(join(dir, "node_modules", "@hooklens"), { recursive: true });
  symlinkSync(RUNTIME_PACKAGE_DIR, join(dir, "node_modules", "@hooklens", "runtime"), "dir");
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify(
      {
        compilerOptions: {
          strict: true,
          target: "ES2022",
          module: "ESNext",
          moduleResolution: "Bundler",
          skipLibCheck: true,
          noEmit: true,
        },
      },
      null,
      2,
    ),
  );
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "hooklib.ts"), 'export { HookBus, HookPoint, HookRegistry, AgentSpec, Session, hook } from "@hooklens/runtime";\n');
  const runtimeFiles: string[] = [];
  const plainFiles: string[] = [];
  let lineCount = 1;
  for (let i = 0; i < fileCount; i++) {
    const path = join(dir, "src", `${moduleName(i)}.ts`);
    const text = i % RUNTIME_EVERY === 0 ? hookModule(i) : plainModule(i);
    writeFileSync(path, text);
    lineCount += text.split("\n").length;
    (i % RUNTIME_EVERY === 0 ? runtimeFiles : plainFiles).push(path);
  }
  // Written well before the editor starts, as a user's files are: the server keeps no import list
  // of a file modified in the last few seconds.
  const longAgo = Date.now() / 1000 - 3600;
  for (const path of [join(dir, "src", "hooklib.ts"), ...runtimeFiles, ...plainFiles]) utimesSync(path, longAgo, longAgo);
  return {
    dir,
    fileCount: fileCount + 1,
    lineCount,
    runtimeFiles,
    plainFiles,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

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

/** A hook module: registrations on a bus (one dormant point), a registry with stream handlers, tool hooks, a session. */
function hookModule(i: number): string {
  const viaBarrel = (i / RUNTIME_EVERY) % 2 === 1;
  const source = viaBarrel ? "./hooklib.js" : "@hooklens/runtime";
  const handlers = Array.from({ length: 12 }, (_, h) => {
    const point = h === 5 ? "API_PRE_CALL" : ["TOOL_PRE", "TOOL_POST", "SESSION_START", "MESSAGE_ADD"][h % 4];
    return `bus.on(HookPoint.${point}, (payload) => { counter += ${h}; seen.push(String(payload)); });`;
  });
  return [
    `// Module ${i}: hook code.`,
    `import { AgentSpec, HookBus, HookPoint, HookRegistry, Session, hook } from "${source}";`,
    ...importLines(i),
    "",
    `let counter = ${i};`,
    `const seen: string[] = [];`,
    `export const bus = new HookBus();`,
    ...handlers,
    `export const marked${i} = hook(HookPoint.TOOL_POST)(() => counter);`,
    `export const registry${i} = new HookRegistry({`,
    `  streamHandlers: {`,
    `    text: (_event: null, _type: string, chunk: unknown) => seen.push(String(chunk)),`,
    `    delta: (chunk: unknown) => seen.push(String(chunk)),`,
    `  },`,
    `});`,
    `const spec = new AgentSpec();`,
    `spec.post("search", (_tool, _action, _args, result) => ({ ...(result as object), checked: true }));`,
    `spec.onError("search", () => undefined);`,
    `export function startSession${i}(): Session {`,
    `  const session = new Session();`,
    `  const hooks = session.hooks;`,
    `  hooks.on(HookPoint.SESSION_END, () => { counter = 0; });`,
    `  session.newBranch();`,
    `  return session;`,
    `}`,
    ...plainBody(i, 8),
    "",
  ].join("\n");
}
