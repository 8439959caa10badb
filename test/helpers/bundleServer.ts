import { mkdirSync } from "node:fs";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { REPO_ROOT } from "./fixtureProject.js";

/**
 * Bundles the server and CLI exactly as the extension ships them, into a private folder under
 * .cache/ (inside the repository, so the bundles find docs/rules/ as an installed copy does).
 * Tests get a real child process without depending on a prior `npm run build`.
 */
export async function bundleServer(): Promise<{ server: string; cli: string }> {
  const outdir = join(REPO_ROOT, ".cache", "test-dist", String(process.pid));
  mkdirSync(outdir, { recursive: true });
  await esbuild.build({
    absWorkingDir: REPO_ROOT,
    entryPoints: { server: "server/src/server.ts", cli: "server/src/cli.ts" },
    outdir,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    logLevel: "error",
    alias: { "@hooklens/runtime": join(REPO_ROOT, "runtime/src/index.ts") },
    // As in scripts/build.mjs: the driver finds its .wasm beside its own JS, so it stays in node_modules.
    external: ["node-sqlite3-wasm"],
  });
  return { server: join(outdir, "server.js"), cli: join(outdir, "cli.js") };
}
