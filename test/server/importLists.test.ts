import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ts } from "ts-morph";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import { ImportLists } from "../../server/src/analyzer/engine/reach/importLists.js";
import { COMPILE_CACHE_DIR_ENV, COMPILE_CACHE_ENV } from "../../server/src/compileCache.js";
import { savedImportLists, savedReferenceLists } from "../../server/src/importListFile.js";
import { createFixture, type Fixture } from "../helpers/fixtureProject.js";

const scratch: string[] = [];
let fixture: Fixture | undefined;
afterEach(() => fixture?.dispose());
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

// The hook file imports a project module that re-exports another one; whether that one hands the
// runtime on decides whether the hook file is analysed at all. Both versions of lib.ts have the
// same length, so only the mtime tells them apart.
const AGENT = 'import { HookBus, HookPoint } from "./mid.js";\nnew HookBus().on(HookPoint.API_PRE_CALL, () => undefined);\n';
const PLAIN_LIB = 'export class HookBus { on(_p: string, _f: () => void) {} }\nexport const HookPoint = { API_PRE_CALL: "x" } as const;\n';
const RUNTIME_LIB = 'export { HookBus, HookPoint } from "@hooklens/runtime";'.padEnd(PLAIN_LIB.length - 1, " ") + "\n";
/** Written well before a start, as a user's files are (lists of files modified in the last seconds are not kept). */
const LONG_AGO = Date.now() / 1000 - 3600;

function project(lib: string): { fixture: Fixture; agent: string; lib: string } {
  fixture = createFixture();
  const agent = fixture.write("agent.ts", AGENT);
  fixture.write("mid.ts", 'export * from "./lib.js";\n');
  const libPath = fixture.write("lib.ts", lib);
  for (const name of ["agent.ts", "mid.ts", "lib.ts"]) utimesSync(fixture.path(name), LONG_AGO, LONG_AGO);
  return { fixture, agent, lib: libPath };
}

/** One start of the analyzer with the lists saved by the last one; returns its codes, the files it listed and what it saves. */
function start(dir: string, agent: string, saved: string | undefined): { codes: string[]; listed: number; saved: string } {
  const lists = ImportLists.read(dir, saved);
  const analysis = new AnalysisProject(dir, { importLists: lists });
  const codes = analysis.analyze(agent).findings.map((f) => f.code);
  return { codes, listed: analysis.stats.filesListed, saved: lists.toText() };
}

describe("import lists kept between starts", () => {
  it("spare reading unchanged files, and a file whose re-export of the runtime appears or disappears is listed again", () => {
    const { fixture, agent, lib } = project(PLAIN_LIB);
    expect(RUNTIME_LIB.length).toBe(PLAIN_LIB.length);

    const first = start(fixture.dir, agent, undefined);
    expect(first).toMatchObject({ codes: [], listed: 3 }); // agent, mid, lib: no runtime in reach

    const again = start(fixture.dir, agent, first.saved);
    expect(again).toMatchObject({ codes: [], listed: 0 });

    // Same size, another mtime: lib.ts now hands the runtime on through mid.ts.
    writeFileSync(lib, RUNTIME_LIB);
    utimesSync(lib, LONG_AGO + 60, LONG_AGO + 60);
    const appeared = start(fixture.dir, agent, again.saved);
    expect(appeared).toMatchObject({ codes: ["HL001"], listed: 1 });

    // Back to the plain text (another size) under the very mtime the list holds.
    writeFileSync(lib, PLAIN_LIB + "// plain again\n");
    utimesSync(lib, LONG_AGO + 60, LONG_AGO + 60);
    const gone = start(fixture.dir, agent, appeared.saved);
    expect(gone).toMatchObject({ codes: [], listed: 1 });
    expect(start(fixture.dir, agent, gone.saved)).toMatchObject({ codes: [], listed: 0 });
  });

  it("are not kept for a file modified in the last seconds, whose next write could leave the same mtime", () => {
    const { fixture, agent, lib } = project(RUNTIME_LIB);
    utimesSync(lib, new Date(), new Date());
    const first = start(fixture.dir, agent, undefined);
    expect(first).toMatchObject({ codes: ["HL001"], listed: 3 });
    expect(start(fixture.dir, agent, first.saved)).toMatchObject({ codes: ["HL001"], listed: 1 });
  });

  it("are ignored when malformed, of another project or listed by another TypeScript; a malformed entry alone is listed again", () => {
    const { fixture, agent, lib } = project(RUNTIME_LIB);
    const saved = start(fixture.dir, agent, undefined).saved;
    const [header, ...entries] = saved.split("\n");
    const withHeader = (change: (h: Record<string, unknown>) => void) => {
      const h = JSON.parse(header!) as Record<string, unknown>;
      change(h);
      return [JSON.stringify(h), ...entries].join("\n");
    };
    for (const text of [
      "{ not a list",
      saved.slice(0, header!.length / 2),
      withHeader((h) => (h.root = "/elsewhere")),
      withHeader((h) => (h.typescript = `${ts.version}-other`)),
      withHeader((h) => (h.format = 1)),
    ])
      expect(start(fixture.dir, agent, text)).toMatchObject({ codes: ["HL001"], listed: 3 });

    // lib.ts's entry of the wrong shape (its specifiers a string): that file alone is listed again.
    const libKey = JSON.stringify(lib);
    const forged = saved
      .split("\n")
      .map((line) => (line.startsWith(`${libKey}\t`) ? `${libKey}\t${JSON.stringify([...(JSON.parse(line.slice(libKey.length + 1)) as unknown[]).slice(0, 2), "@hooklens/runtime"])}` : line))
      .join("\n");
    expect(forged).not.toBe(saved);
    expect(start(fixture.dir, agent, forged)).toMatchObject({ codes: ["HL001"], listed: 1 });
    expect(start(fixture.dir, agent, saved)).toMatchObject({ codes: ["HL001"], listed: 0 });
  });
});

describe("the server's saved import lists", () => {
  const withCacheDir = async <T>(work: (dir: string) => Promise<T>): Promise<T> => {
    const dir = mkdtempSync(join(tmpdir(), "hooklens-import-lists-test-"));
    scratch.push(dir);
    chmodSync(dir, 0o700);
    const before = process.env[COMPILE_CACHE_DIR_ENV];
    process.env[COMPILE_CACHE_DIR_ENV] = dir;
    try {
      return await work(dir);
    } finally {
      if (before === undefined) delete process.env[COMPILE_CACHE_DIR_ENV];
      else process.env[COMPILE_CACHE_DIR_ENV] = before;
    }
  };
  const savedFiles = (dir: string, prefix = "imports-") => readdirSync(dir).filter((name) => name.startsWith(prefix) && name.endsWith(".lists"));
  const untilSaved = async (dir: string, prefix?: string) => {
    for (const deadline = Date.now() + 60_000; savedFiles(dir, prefix).length === 0; ) {
      if (Date.now() > deadline) throw new Error("the import lists were never saved");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const stamp = { mtimeMs: 1_700_000_000_000.25, size: 42 };

  it("are saved, private to the user, once the process is idle, and read by the next start", async () => {
    await withCacheDir(async (dir) => {
      savedImportLists("/some/project")!.set("/some/project/a.ts", stamp, ["./b.js"]);
      await untilSaved(dir);
      const [file] = savedFiles(dir);
      expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);
      expect(readFileSync(join(dir, file!), "utf8")).toContain("/some/project/a.ts");
      expect(savedImportLists("/some/project")!.get("/some/project/a.ts", stamp)).toEqual(["./b.js"]);
      expect(savedImportLists("/other/project")!.get("/some/project/a.ts", stamp)).toBeUndefined();
    });
  });

  it("are ignored when someone else could have written them", async () => {
    await withCacheDir(async (dir) => {
      savedImportLists("/some/project")!.set("/some/project/a.ts", stamp, ["./b.js"]);
      await untilSaved(dir);
      chmodSync(join(dir, savedFiles(dir)[0]!), 0o666);
      expect(savedImportLists("/some/project")!.get("/some/project/a.ts", stamp)).toBeUndefined();
    });
  });

  it("keep the runtime's-side walk's references in a file of their own, read by the next start", async () => {
    await withCacheDir(async (dir) => {
      const references = { modules: ["./b.js"], paths: [], types: ["node"] };
      savedReferenceLists("/some/project")!.set("/some/project/a.ts", stamp, references);
      await untilSaved(dir, "references-");
      const [file] = savedFiles(dir, "references-");
      expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);
      expect(savedFiles(dir)).toEqual([]);
      expect(savedReferenceLists("/some/project")!.get("/some/project/a.ts", stamp)).toEqual(references);
      // The import lists' file is not read as reference lists, nor the other way round.
      expect(savedImportLists("/some/project")!.get("/some/project/a.ts", stamp)).toBeUndefined();
    });
  });

  it("are not kept when the compile cache is turned off", async () => {
    await withCacheDir(async () => {
      const before = process.env[COMPILE_CACHE_ENV];
      process.env[COMPILE_CACHE_ENV] = "0";
      try {
        expect(savedImportLists("/some/project")).toBeUndefined();
        expect(savedReferenceLists("/some/project")).toBeUndefined();
      } finally {
        if (before === undefined) delete process.env[COMPILE_CACHE_ENV];
        else process.env[COMPILE_CACHE_ENV] = before;
      }
    });
  });
});
