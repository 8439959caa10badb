import { mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import { buildSync } from "esbuild";
import { removeLeftByEndedWorkers } from "./endedWorkers.js";
import { REPO_ROOT } from "./fixtureProject.js";

const OUT_DIR = join(REPO_ROOT, ".cache", "fixtures");
const built = new Map<string, string>();

/**
 * A TypeScript fixture program bundled, with the runtime sources it imports, into one ES module
 * that a test starts as plain Node. Started through tsx's loader, each start cost about 1.5 s of
 * CPU, and some tests start a program twenty times. Packages stay external: the output sits in
 * the repository's `.cache/`, so they resolve from its node_modules as before. Built once per test
 * process (names carry the pid, so parallel test files never share one).
 */
export function bundledFixture(script: string): string {
  const held = built.get(script);
  if (held) return held;
  mkdirSync(OUT_DIR, { recursive: true });
  const outfile = join(OUT_DIR, `${basename(script).replace(/\.[cm]?ts$/, "")}-${process.pid}.mjs`);
  buildSync({
    entryPoints: [script],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "error",
  });
  built.set(script, outfile);
  return outfile;
}

/** Removes the bundles of test workers that have ended. */
export function removeEndedFixtureBundles(): void {
  removeLeftByEndedWorkers(OUT_DIR, (name) => Number(/-(\d+)\.mjs$/.exec(name)?.[1]) || undefined);
}
