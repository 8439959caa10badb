import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface Fixture {
  dir: string;
  path(relativePath: string): string;
  write(relativePath: string, text: string): string;
  dispose(): void;
}

/**
 * A real folder on disk for analyzer tests. With `runtime: "resolved"` its tsconfig maps
 * `@hooklens/runtime` to this repository's runtime sources, as an installed package would;
 * with `"missing"` the import cannot be resolved, as before `npm install`.
 */
export function createFixture(runtime: "resolved" | "missing" = "resolved", prefix = "hooklens-fixture-"): Fixture {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const compilerOptions: Record<string, unknown> = { strict: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler", skipLibCheck: true };
  if (runtime === "resolved") compilerOptions["paths"] = { "@hooklens/runtime": [join(REPO_ROOT, "runtime/src/index.ts")] };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions }));
  const fixture: Fixture = {
    dir,
    path: (relativePath) => join(dir, relativePath),
    write(relativePath, text) {
      const path = join(dir, relativePath);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      return path;
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
  return fixture;
}
