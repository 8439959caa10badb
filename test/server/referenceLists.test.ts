import { mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ts } from "ts-morph";
import { afterAll, describe, expect, it } from "vitest";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import { ImportLists } from "../../server/src/analyzer/engine/reach/importLists.js";
import { ReferenceLists } from "../../server/src/analyzer/engine/reach/referenceLists.js";
import { createFixture, REPO_ROOT } from "../helpers/fixtureProject.js";

// A hook module whose handler uses members of package imports (`path.join`, `shout.loud`): HL001
// asks whether each is a runtime export, which the runtime's-side walk answers from every file the
// program could hold (the runtime's sources, `@types/node`, the package, the project module).
const AGENT = [
  'import { HookBus, HookPoint } from "@hooklens/runtime";',
  'import path from "node:path";',
  'import shout from "shout";',
  'import { label } from "./label.js";',
  "const bus = new HookBus();",
  'bus.on(HookPoint.API_PRE_CALL, () => { path.join(label, "x"); shout.loud(label); });',
  "",
].join("\n");
const SHOUT = "declare const shout: { loud(text: string): string };\nexport default shout;\n";
const SHOUT_RELAYING = 'import type { HookBus } from "@hooklens/runtime";\ndeclare const shout: { loud(text: string): string; bus?: HookBus };\nexport default shout;\n';
/** Written well before a start, as a user's files are (what was read from files modified in the last seconds is not kept). */
const LONG_AGO = Date.now() / 1000 - 3600;

const fixture = createFixture();
const agent = fixture.write("agent.ts", AGENT);
const label = fixture.write("label.ts", 'export const label = "hello";\n');
const shout = fixture.write("node_modules/shout/index.d.ts", SHOUT);
fixture.write("node_modules/shout/package.json", JSON.stringify({ name: "shout", types: "index.d.ts" }));
mkdirSync(fixture.path("node_modules/@types"), { recursive: true });
symlinkSync(join(REPO_ROOT, "node_modules/@types/node"), fixture.path("node_modules/@types/node"), "dir");
const tsconfig = fixture.path("tsconfig.json");
const { compilerOptions } = JSON.parse(readFileSync(tsconfig, "utf8")) as { compilerOptions: Record<string, unknown> };
writeFileSync(tsconfig, JSON.stringify({ compilerOptions: { ...compilerOptions, types: ["node"] } }));
for (const path of [agent, label, shout]) utimesSync(path, LONG_AGO, LONG_AGO);
afterAll(() => fixture.dispose());

/** One start of the analyzer with the reference lists saved by the last one: its findings, the files it read for their references, and what it saves. */
function start(saved: string | undefined): { findings: string; scanned: number; saved: string } {
  const lists = ReferenceLists.read(fixture.dir, saved);
  const analysis = new AnalysisProject(fixture.dir, { referenceLists: lists });
  const findings = JSON.stringify(analysis.analyze(agent).findings);
  return { findings, scanned: analysis.stats.filesScanned, saved: lists.toText() };
}

/** What a saved list holds for `path`. */
function savedEntry(saved: string, path: string): unknown {
  const line = saved.split("\n").find((entry) => entry.startsWith(`${JSON.stringify(path)}\t`));
  return line && (JSON.parse(line.slice(line.indexOf("\t") + 1)) as [number, number, unknown])[2];
}

const first = start(undefined);

describe("reference lists kept between starts", () => {
  it("spare a restart reading any unchanged file's references, with the same findings", () => {
    // The walk read the runtime's sources and `@types/node`, and parsed the files on the runtime's side.
    expect(first.scanned).toBeGreaterThan(50);
    const again = start(first.saved);
    expect(again.scanned).toBe(0);
    expect(again.findings).toBe(first.findings);
    // Saved again, it still serves a third start.
    expect(start(again.saved).scanned).toBe(0);
  });

  it("read a file again when its mtime or size changed, a package's file too", () => {
    try {
      // Another size: the package now names the runtime, so it is on the runtime's side: pre-processed, then parsed.
      writeFileSync(shout, SHOUT_RELAYING);
      utimesSync(shout, LONG_AGO, LONG_AGO);
      const relaying = start(first.saved);
      expect(relaying.scanned).toBe(2);
      expect(savedEntry(relaying.saved, shout)).toEqual({ modules: ["@hooklens/runtime"], paths: [], types: [], confined: true });
      expect(start(relaying.saved).scanned).toBe(0);
      // Now it adds to the globals: under the same mtime, its verdict is parsed again, not taken from the list.
      writeFileSync(shout, `${SHOUT_RELAYING}declare global { var shoutBus: HookBus }\n`);
      utimesSync(shout, LONG_AGO, LONG_AGO);
      const augmenting = start(relaying.saved);
      expect(augmenting.scanned).toBe(2);
      expect(savedEntry(augmenting.saved, shout)).toMatchObject({ confined: false });
      writeFileSync(shout, SHOUT_RELAYING);
      utimesSync(shout, LONG_AGO, LONG_AGO);
      // The same text under another mtime (a file off the runtime's side: only pre-processed).
      utimesSync(label, LONG_AGO + 60, LONG_AGO + 60);
      const touched = start(relaying.saved);
      expect(touched.scanned).toBe(1);
      expect(touched.findings).toBe(first.findings);
      expect(start(touched.saved).scanned).toBe(0);
    } finally {
      writeFileSync(shout, SHOUT);
      utimesSync(shout, LONG_AGO, LONG_AGO);
      utimesSync(label, LONG_AGO, LONG_AGO);
    }
  });

  it("are ignored when malformed, of another kind, project or TypeScript; a malformed entry alone is read again", () => {
    const [header, ...entries] = first.saved.split("\n");
    const withHeader = (change: (h: Record<string, unknown>) => void) => {
      const h = JSON.parse(header!) as Record<string, unknown>;
      change(h);
      return [JSON.stringify(h), ...entries].join("\n");
    };
    const importLists = new ImportLists(fixture.dir);
    importLists.set(agent, { mtimeMs: LONG_AGO * 1000, size: AGENT.length }, ["node:path"]);
    for (const text of [
      "{ not a list",
      first.saved.slice(0, header!.length / 2),
      importLists.toText(),
      withHeader((h) => (h.kind = "imports")),
      withHeader((h) => (h.root = "/elsewhere")),
      withHeader((h) => (h.typescript = `${ts.version}-other`)),
      withHeader((h) => (h.format = 1)),
    ])
      expect(start(text)).toMatchObject({ scanned: first.scanned, findings: first.findings });

    // label.ts's entry of the wrong shape (its modules a string): that file alone is read again.
    const labelKey = JSON.stringify(label);
    const forged = first.saved
      .split("\n")
      .map((line) => {
        if (!line.startsWith(`${labelKey}\t`)) return line;
        const [mtimeMs, size] = JSON.parse(line.slice(labelKey.length + 1)) as [number, number];
        return `${labelKey}\t${JSON.stringify([mtimeMs, size, { modules: "@hooklens/runtime", paths: [], types: [] }])}`;
      })
      .join("\n");
    expect(forged).not.toBe(first.saved);
    expect(start(forged)).toMatchObject({ scanned: 1, findings: first.findings });
  });

  it("are not kept for a file modified in the last seconds", () => {
    try {
      utimesSync(label, new Date(), new Date());
      const fresh = start(first.saved);
      expect(fresh.scanned).toBe(1);
      expect(start(fresh.saved).scanned).toBe(1);
    } finally {
      utimesSync(label, LONG_AGO, LONG_AGO);
    }
  });
});
