import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPILE_CACHE_ENV } from "../../../server/src/compileCache.js";
import { builtCli } from "../../helpers/builtCli.js";
import { agentDiagnostics, agentFixture } from "../../helpers/builtServerAgent.js";
import { REPO_ROOT, type Fixture } from "../../helpers/fixtureProject.js";

// The server's bundle carries no TypeScript library text: the files are shipped beside it (scripts/shippedLib.mjs).
const DIST = join(REPO_ROOT, "dist");

let fixture: Fixture;
let agent: string;
const scratch: string[] = [];
beforeAll(() => {
  builtCli(); // the same build writes dist/ and the lib folder
  ({ fixture, agent } = agentFixture());
}, 300_000);
afterAll(() => {
  fixture.dispose();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A copy of dist/'s server, compiled without a cache, on the agent. */
const analyseWith = (dir: string) => agentDiagnostics(join(dir, "server.js"), fixture.dir, agent, { [COMPILE_CACHE_ENV]: "0" });

function copyOfDist(withLib: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), "hooklens-shipped-lib-"));
  scratch.push(dir);
  for (const file of ["server.js", "server-main.cjs"]) cpSync(join(DIST, file), join(dir, file));
  if (withLib) cpSync(join(DIST, "typescript/lib"), join(dir, "typescript/lib"), { recursive: true });
  return dir;
}

describe("TypeScript's library files beside the server's bundle", { timeout: 300_000 }, () => {
  it("are files beside the bundle, ES and DOM alike, and not text inside it", () => {
    for (const name of ["lib.es5.d.ts", "lib.es2022.d.ts", "lib.dom.d.ts"]) expect(existsSync(join(DIST, "typescript/lib", name))).toBe(true);
    expect(readFileSync(join(DIST, "typescript/lib/lib.dom.d.ts"), "utf8")).toContain("interface HTMLElement");
    expect(readFileSync(join(DIST, "server-main.cjs"), "latin1")).not.toContain("interface HTMLElement");
  });

  it("are what the server analyses with: without them it says so instead of analysing with no library", async () => {
    expect(await analyseWith(copyOfDist(true))).toEqual({ codes: ["HL001"] });
    expect(await analyseWith(copyOfDist(false))).toEqual({ error: expect.stringContaining("TypeScript's library files are missing beside the server") });
  });
});
