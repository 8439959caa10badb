import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./fixtureProject.js";

const CLI = join(REPO_ROOT, "server/dist/cli.cjs");
const SOURCES = ["server/src", "runtime/src", "scripts/build.mjs"];

/**
 * The CLI as `node scripts/build.mjs` ships it (`server/dist/cli.cjs`, node-sqlite3-wasm
 * required from node_modules). Runs the build first when the bundle is missing or older than
 * any source, so a test never exercises a stale bundle.
 */
export function builtCli(): string {
  if (!existsSync(CLI) || statSync(CLI).mtimeMs < newestSource()) {
    execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: REPO_ROOT, stdio: "pipe" });
  }
  return CLI;
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
