import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, join } from "node:path";
import vm from "node:vm";
import { compileCacheDir, onFirstWorkDone, writePrivateFile } from "./compileCache.js";
import { SERVER_BUNDLE_WRAPPER } from "./serverBundle.js";

/**
 * The language server's entry point (dist/server.js): a few lines that load the server bundle
 * beside it (server-main.cjs, ~8.5 MB of JavaScript, most of it TypeScript's compiler) through a V8
 * code cache, so every start after the first skips compiling it: the larger part of the cold start.
 * The cache is saved once the server is idle after its first analysis (or at exit, if sooner), so
 * the parser's and checker's functions that analysis compiled are in it and the first diagnostics do
 * not wait for it. V8 refuses a cache made by another V8 or with other flags; the file name
 * carries a hash of the bundle, so a rebuilt bundle never meets an old cache. Without a usable
 * cache folder the bundle is compiled the same way, without a cache.
 *
 * The bundle is built as one function expression (the wrapper Node puts around a CommonJS module,
 * serverBundle.ts) and checked to be ASCII (scripts/build.mjs): its text is compiled as read, where
 * wrapping it here made V8 copy all of it once more (~50 ms), and a latin1 string of its bytes is
 * the same text, made without UTF-8 decoding or checking each byte at every start (~30 ms).
 */
const CACHE_PREFIX = "server-main-";
load(join(__dirname, "server-main.cjs"));

function load(path: string): void {
  const bytes = readFileSync(path);
  if (!bytes.subarray(0, SERVER_BUNDLE_WRAPPER.length).equals(Buffer.from(SERVER_BUNDLE_WRAPPER))) throw new Error(`${path} is not a HookLens server bundle`);
  const source = bytes.toString("latin1");
  const cache = cacheOf(bytes);
  const script = new vm.Script(source, {
    filename: path,
    cachedData: cache?.data,
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cache && (cache.data === undefined || script.cachedDataRejected)) onFirstWorkDone(() => save(cache.file, script));
  const mainModule = new Module(path, module);
  mainModule.filename = path;
  mainModule.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(path));
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(mainModule.exports, mainModule.exports, createRequire(path), mainModule, path, dirname(path));
  mainModule.loaded = true;
}

/** The cache file for this bundle and its data when there is one; undefined when caching is off or its folder unusable. */
function cacheOf(bytes: Buffer): { file: string; data: Buffer | undefined } | undefined {
  const dir = compileCacheDir();
  if (!dir) return undefined;
  try {
    const key = createHash("sha1").update(bytes).update(process.version).update(process.arch).update(process.execArgv.join(" ")).digest("hex");
    const file = join(dir, `${CACHE_PREFIX}${key}.bin`);
    return { file, data: existsSync(file) ? readFileSync(file) : undefined };
  } catch {
    return undefined;
  }
}

/** Writes the cache of this bundle and removes those of earlier builds. */
function save(cacheFile: string, script: vm.Script): void {
  try {
    writePrivateFile(cacheFile, script.createCachedData());
    const dir = dirname(cacheFile);
    for (const name of readdirSync(dir)) if (name.startsWith(CACHE_PREFIX) && join(dir, name) !== cacheFile) rmSync(join(dir, name), { force: true });
  } catch {
    // a full disk or a read-only temp folder: the next start compiles again
  }
}
