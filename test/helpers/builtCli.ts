import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { inject } from "vitest";
import { REPO_ROOT } from "./fixtureProject.js";

const CLI = join(REPO_ROOT, "server/dist/cli.cjs");
const SOURCES = ["server/src", "runtime/src", "scripts/build.mjs", "scripts/cliBundles.mjs", "scripts/eagerTypeScript.mjs"];

/**
 * The CLI bundled as `node scripts/build.mjs` bundles it (node-sqlite3-wasm and pg required
 * from node_modules): the test run's bundle (test/setup/globalSetup.ts) when there is one,
 * else `server/dist/cli.cjs`, built first when missing or older than any source, so a test
 * never exercises a stale bundle.
 */
export function builtCli(): string {
  const provided = inject("serverBundles");
  if (provided) return provided.cli;
  if (isFresh()) return CLI;
  // Test files run in parallel workers: one builds while the others wait, since the build
  // deletes the output folders first and would pull the bundle from under a running test.
  withLock(() => {
    if (!isFresh()) execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: REPO_ROOT, stdio: "pipe" });
  });
  return CLI;
}

function isFresh(): boolean {
  return existsSync(CLI) && statSync(CLI).mtimeMs >= newestSource();
}

function withLock(work: () => void): void {
  const lock = join(REPO_ROOT, ".cache", "build.lock");
  mkdirSync(dirname(lock), { recursive: true });
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than any build is left over from a killed run.
      const held = statSync(lock, { throwIfNoEntry: false });
      if (Date.now() > deadline || (held && Date.now() - held.mtimeMs > 180_000)) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function newestSource(): number {
  let newest = 0;
  const visit = (path: string): void => {
    const stat = statSync(path);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const source of SOURCES) visit(join(REPO_ROOT, source));
  return newest;
}
