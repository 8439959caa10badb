import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Writes a library-like tree of `count` TypeScript files under `dir/src`: each declares a wide
 * interface, recursive mapped and template-literal types over it and its predecessor's, and uses
 * the runtime, so every file costs the type checker real work and imports the file before it.
 */
export function writeTypeHeavyTree(dir: string, count: number): string[] {
  const files: string[] = [];
  mkdirSync(join(dir, "src"), { recursive: true });
  for (let i = 0; i < count; i++) {
    const previous = i === 0 ? null : `m${i - 1}`;
    const fields = Array.from({ length: 24 }, (_, f) => `  f${i}_${f}: { id: ${f}; tag: "t${f}"; nested: { a${f}: string[]; b${f}: Map<string, number> } };`).join("\n");
    const text = `import { HookBus, HookPoint, HookRegistry } from "@hooklens/runtime";
${previous ? `import type { Model${i - 1}, Paths${i - 1} } from "./${previous}";\n` : ""}
export interface Model${i} {
${fields}
}
export type Deep${i}<T> = { readonly [K in keyof T]: T[K] extends object ? Deep${i}<T[K]> : T[K] };
export type Paths${i}<T, D extends unknown[] = []> = D["length"] extends 3 ? never : {
  [K in keyof T & string]: T[K] extends object ? K | \`\${K}.\${Paths${i}<T[K], [...D, 1]>}\` : K;
}[keyof T & string];
export type Keys${i} = Paths${i}<Model${i}>${previous ? ` | Paths${i - 1}<Model${i - 1}>` : ""};
export const frozen${i}: Deep${i}<Model${i}> | undefined = undefined;

export function wire${i}(bus: HookBus, registry: HookRegistry, key: Keys${i}): void {
  bus.on(HookPoint.TOOL_PRE, (payload) => {
    const seen: Deep${i}<Model${i}> | undefined = frozen${i};
    void seen;
    void payload;
    void key;
  });
  registry.postInvoke(async (event) => event);
}
`;
    const path = join(dir, "src", `m${i}.ts`);
    writeFileSync(path, text);
    files.push(path);
  }
  return files;
}
