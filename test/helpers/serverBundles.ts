import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { REPO_ROOT } from "./fixtureProject.js";

export interface ServerBundles {
  server: string;
  cli: string;
}

/** Sources the bundles are made of: when none is newer than the bundles, they are reused. */
const SOURCES = ["server/src", "runtime/src", "scripts/cliBundles.mjs", "scripts/eagerTypeScript.mjs", "scripts/runtimeBundles.mjs", "test/helpers/serverBundles.ts"];
/**
 * Inside the repository, so the bundles find docs/rules/ by walking up as an installed copy does.
 * The test run bundles once (test/setup/globalSetup.ts) and every test file reads the same files.
 */
const BUNDLE_DIR = join(REPO_ROOT, ".cache", "test-dist", "current");

/**
 * The server and CLI bundled as scripts/build.mjs bundles them (runtime from its sources,
 * node-sqlite3-wasm and pg required from node_modules), built only when a source changed.
 */
export async function serverBundles(): Promise<ServerBundles> {
  const bundles = { server: join(BUNDLE_DIR, "server.js"), cli: join(BUNDLE_DIR, "cli.cjs") };
  if (isFresh(bundles)) return bundles;
  // Build beside, then swap in: a run that reads the old bundles never sees half-written ones.
  const staging = `${BUNDLE_DIR}-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const { buildCliBundles } = (await import(join(REPO_ROOT, "scripts/cliBundles.mjs"))) as {
    buildCliBundles(root: string, outdir: string): Promise<unknown>;
  };
  const { runtimeSourceAliases, RUNTIME_EXTERNALS } = (await import(join(REPO_ROOT, "scripts/runtimeBundles.mjs"))) as {
    runtimeSourceAliases(root: string): Record<string, string>;
    RUNTIME_EXTERNALS: string[];
  };
  await Promise.all([
    esbuild.build({
      absWorkingDir: REPO_ROOT,
      entryPoints: { server: "server/src/server.ts" },
      outdir: staging,
      bundle: true,
      platform: "node",
      target: "node20",
      format: "cjs",
      logLevel: "error",
      alias: runtimeSourceAliases(REPO_ROOT),
      external: RUNTIME_EXTERNALS,
    }),
    // The CLI exactly as users get it: cli.cjs and the check command's bundle beside it.
    buildCliBundles(REPO_ROOT, staging),
  ]);
  rmSync(BUNDLE_DIR, { recursive: true, force: true });
  renameSync(staging, BUNDLE_DIR);
  return bundles;
}

function isFresh(bundles: ServerBundles): boolean {
  if (!existsSync(bundles.server) || !existsSync(bundles.cli)) return false;
  const built = Math.min(statSync(bundles.server).mtimeMs, statSync(bundles.cli).mtimeMs);
  return newestMtime(SOURCES.map((s) => join(REPO_ROOT, s))) <= built;
}

/** The newest modification time under the given files and folders. */
export function newestMtime(paths: readonly string[]): number {
  let newest = 0;
  const visit = (path: string): void => {
    const stat = statSync(path);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const path of paths) visit(path);
  return newest;
}
