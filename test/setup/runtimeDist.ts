import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO_ROOT } from "../helpers/fixtureProject.js";
import { newestMtime } from "../helpers/serverBundles.js";

/**
 * Where the dist test projects (vitest.config.ts) find the runtime as it ships: the same esbuild
 * settings as runtime/dist (scripts/runtimeBundles.mjs), built into the test cache so that
 * `npm pack`, whose prepack rebuilds runtime/dist, can run beside these tests.
 */
export const RUNTIME_DIST_DIR = join(REPO_ROOT, ".cache", "test-dist", "runtime");

const SOURCES = ["runtime/src", "runtime/package.json", "scripts/runtimeBundles.mjs"];

/** Builds the runtime's ESM and CJS bundles unless they are newer than every source. */
export default async function setup(): Promise<void> {
  const marker = join(RUNTIME_DIST_DIR, "package.json");
  if (existsSync(marker) && newestMtime(SOURCES.map((s) => join(REPO_ROOT, s))) <= statSync(marker).mtimeMs) return;
  // Built beside, then swapped in: a test that loads the bundles never sees half-written ones.
  const staging = `${RUNTIME_DIST_DIR}-${process.pid}-${Math.random().toString(16).slice(2)}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const { buildRuntimeBundles } = (await import(join(REPO_ROOT, "scripts/runtimeBundles.mjs"))) as {
    buildRuntimeBundles(root: string, outdir: string): Promise<void>;
  };
  await buildRuntimeBundles(REPO_ROOT, relative(REPO_ROOT, staging));
  // As runtime/package.json says for the published files: `.js` is ESM, `.cjs` CommonJS.
  writeFileSync(join(staging, "package.json"), JSON.stringify({ type: "module" }) + "\n");
  rmSync(RUNTIME_DIST_DIR, { recursive: true, force: true });
  try {
    renameSync(staging, RUNTIME_DIST_DIR);
  } catch (error) {
    // Another setup (the other dist project) swapped its identical build in first.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(marker)) throw error;
  }
}
