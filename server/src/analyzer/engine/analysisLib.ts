import { ts } from "ts-morph";

/**
 * The standard library the analyzer type-checks with. When a project names its `lib`, that is
 * used as it is. When it does not, TypeScript would load the target's ES library plus the DOM
 * (lib.dom.d.ts alone is three quarters of the text a small program parses, about half a second
 * of CPU at every start); the analyzer loads the target's ES library only. No rule asks about DOM
 * types: an expression typed by one is then `any` to the analyzer, which every rule already treats
 * as "cannot know" and leaves alone.
 */
export function analysisLib(options: ts.CompilerOptions): string[] | undefined {
  if (options.lib !== undefined || options.noLib) return undefined;
  const full = ts.getDefaultLibFileName(options);
  if (full === "lib.d.ts") return ["lib.es5.d.ts"];
  return full.endsWith(".full.d.ts") ? [full.replace(/\.full\.d\.ts$/, ".d.ts")] : undefined;
}
