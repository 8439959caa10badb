import { isAscii } from "node:buffer";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, join } from "node:path";
import vm from "node:vm";
import { compileCacheDir, onFirstWorkDone } from "./compileCache.js";

/**
 * The language server's entry point (dist/server.js): a few lines that load the server bundle
 * beside it (server-main.cjs, ~8 MB of JavaScript, most of it TypeScript's compiler) through a V8
 * code cache, so every start after the first skips compiling it: the larger part of the cold start.
 * The cache is saved after the first analysis, so the parser's and checker's functions that analysis
 * compiled are in it. V8 refuses a cache made by another V8 or with other flags; the file name
 * carries a hash of the bundle, so a rebuilt bundle never meets an old cache. Any failure loads the
 * bundle the ordinary way.
 */
const CACHE_PREFIX = "server-main-";
const main = join(__dirname, "server-main.cjs");
loadWithCache(main) || require(main);

function loadWithCache(path: string): boolean {
  const prepared = compileWithCache(path);
  if (!prepared) return false;
  const { script, cacheFile, cached } = prepared;
  if (!cached) onFirstWorkDone(() => save(cacheFile, script));
  const mainModule = new Module(path, module);
  mainModule.filename = path;
  mainModule.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(path));
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(mainModule.exports, mainModule.exports, createRequire(path), mainModule, path, dirname(path));
  mainModule.loaded = true;
  return true;
}

/** The bundle compiled with the cache when there is a usable one; undefined when caching is off or fails (then it is required as usual). */
function compileWithCache(path: string): { script: vm.Script; cacheFile: string; cached: boolean } | undefined {
  const dir = compileCacheDir();
  if (!dir) return undefined;
  try {
    const bytes = readFileSync(path);
    // The bundle is ASCII (esbuild escapes the rest): a latin1 string of it is the same text, made
    // without UTF-8 decoding, and hashing the bytes skips encoding it again (~150 ms CPU together).
    const source = isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
    const key = createHash("sha1").update(bytes).update(process.version).update(process.arch).update(process.execArgv.join(" ")).digest("hex");
    const cacheFile = join(dir, `${CACHE_PREFIX}${key}.bin`);
    const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
    const script = new vm.Script(Module.wrap(source), {
      filename: path,
      cachedData,
      importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    return { script, cacheFile, cached: cachedData !== undefined && !script.cachedDataRejected };
  } catch {
    return undefined;
  }
}

/** Writes the cache of this bundle and removes those of earlier builds. */
function save(cacheFile: string, script: vm.Script): void {
  try {
    const partial = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
    renameSync(partial, cacheFile); // atomic: another server starting now reads all of it or none
    const dir = dirname(cacheFile);
    for (const name of readdirSync(dir)) if (name.startsWith(CACHE_PREFIX) && join(dir, name) !== cacheFile) rmSync(join(dir, name), { force: true });
  } catch {
    // a full disk or a read-only temp folder: the next start compiles again
  }
}
