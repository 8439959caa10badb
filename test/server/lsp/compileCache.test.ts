import { isAscii } from "node:buffer";
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPILE_CACHE_DIR_ENV, COMPILE_CACHE_IDLE_MS_ENV } from "../../../server/src/compileCache.js";
import { SERVER_BUNDLE_WRAPPER, SERVER_BUNDLE_WRAPPER_END } from "../../../server/src/serverBundle.js";
import { builtCli } from "../../helpers/builtCli.js";
import { agentDiagnostics, agentFixture } from "../../helpers/builtServerAgent.js";
import { REPO_ROOT, type Fixture } from "../../helpers/fixtureProject.js";

// The entry point the extension and the bench start: it loads dist/server-main.cjs through the cache.
const SERVER = join(REPO_ROOT, "dist/server.js");

let fixture: Fixture;
let agent: string;
const scratch: string[] = [];
beforeAll(() => {
  builtCli(); // the same build writes dist/server.js and dist/server-main.cjs
  ({ fixture, agent } = agentFixture());
}, 300_000);
afterAll(() => {
  fixture.dispose();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function cacheDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "hooklens-compile-cache-test-"));
  scratch.push(dir);
  return dir;
}

/**
 * Starts the server with `dir` as its compile cache, gets the agent's diagnostic codes, runs
 * `whileRunning` and shuts the server down cleanly.
 */
async function diagnosticsWithCache(dir: string, env: Record<string, string> = {}, whileRunning?: () => Promise<void>): Promise<string[]> {
  const result = await agentDiagnostics(SERVER, fixture.dir, agent, { [COMPILE_CACHE_DIR_ENV]: dir, ...env }, whileRunning);
  if ("error" in result) throw new Error(result.error);
  return result.codes;
}

const cacheFiles = (dir: string) => readdirSync(dir).filter((name) => name.endsWith(".bin"));

/** Waits until `dir` holds a cache file (the limit only turns a hang into a readable failure on a loaded machine). */
async function cacheWritten(dir: string): Promise<void> {
  for (const deadline = Date.now() + 150_000; cacheFiles(dir).length === 0; ) {
    if (Date.now() > deadline) throw new Error("the running server never wrote its compile cache");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the server bundle's compile cache", { timeout: 300_000 }, () => {
  it("is written after the first analysis, private to the user, and used as it is by the next start", async () => {
    const dir = cacheDir();
    expect(await diagnosticsWithCache(dir)).toEqual(["HL001"]);
    const [file, ...others] = cacheFiles(dir);
    expect(others).toEqual([]);
    const written = statSync(join(dir, file!));
    expect(written.mode & 0o777).toBe(0o600);
    expect(written.size).toBeGreaterThan(1_000_000);

    // A cache V8 refused would be written again after the analysis; an accepted one is left as it is.
    expect(await diagnosticsWithCache(dir)).toEqual(["HL001"]);
    expect(cacheFiles(dir)).toEqual([file]);
    expect(statSync(join(dir, file!)).mtimeMs).toBe(written.mtimeMs);
  });

  it("is written once the server is idle after its first analysis, while it keeps running", async () => {
    const dir = cacheDir();
    expect(await diagnosticsWithCache(dir, {}, () => cacheWritten(dir))).toEqual(["HL001"]);
    const [file] = cacheFiles(dir);
    const written = statSync(join(dir, file!)).mtimeMs;
    expect(await diagnosticsWithCache(dir)).toEqual(["HL001"]);
    expect(cacheFiles(dir)).toEqual([file]);
    expect(statSync(join(dir, file!)).mtimeMs).toBe(written);
  });

  it("is not written before the first diagnostics leave, and a server that exits before it is idle writes it at exit", async () => {
    const dir = cacheDir();
    // An hour's quiet before the write: only the exit can bring it on.
    const neverIdle = { [COMPILE_CACHE_IDLE_MS_ENV]: String(3_600_000) };
    let whileAnswering: string[] | undefined;
    expect(await diagnosticsWithCache(dir, neverIdle, async () => void (whileAnswering = cacheFiles(dir)))).toEqual(["HL001"]);
    expect(whileAnswering).toEqual([]);
    const [file, ...others] = cacheFiles(dir);
    expect(others).toEqual([]);
    const written = statSync(join(dir, file!)).mtimeMs;
    expect(await diagnosticsWithCache(dir)).toEqual(["HL001"]);
    expect(statSync(join(dir, file!)).mtimeMs).toBe(written); // V8 accepted it: not written again
  });

  it("compiles a bundle built to be compiled as read: one function expression, in ASCII", () => {
    const bytes = readFileSync(join(REPO_ROOT, "dist/server-main.cjs"));
    expect(isAscii(bytes)).toBe(true);
    const text = bytes.toString("latin1");
    expect(text.startsWith(SERVER_BUNDLE_WRAPPER)).toBe(true);
    expect(text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "").endsWith(SERVER_BUNDLE_WRAPPER_END)).toBe(true);
  });

  it("is not kept in a folder that others can write to, and the server works the same without it", async () => {
    const dir = cacheDir();
    chmodSync(dir, 0o777);
    expect(await diagnosticsWithCache(dir)).toEqual(["HL001"]);
    expect(cacheFiles(dir)).toEqual([]);
  });
});
