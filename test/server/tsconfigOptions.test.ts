import { createRequire } from "node:module";
import { ts } from "ts-morph";
import { afterAll, describe, expect, it, vi } from "vitest";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import { tsconfigCompilerOptions } from "../../server/src/analyzer/engine/tsconfigOptions.js";
import { createFixture } from "../helpers/fixtureProject.js";

const fixture = createFixture();
afterAll(() => fixture.dispose());

/** ts.sys, counting the folders it is asked to list. */
function listingHost() {
  const listed: string[] = [];
  const host: ts.ParseConfigHost & ts.ParseConfigFileHost = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: () => undefined,
    readDirectory: (...args: Parameters<ts.System["readDirectory"]>) => {
      listed.push(args[0]);
      return ts.sys.readDirectory(...args);
    },
  };
  return { host, listed };
}

describe("a tsconfig's compiler options", () => {
  it("are TypeScript's own reading of it, extends and paths included, without listing the files it includes", () => {
    fixture.write("configs/base.json", JSON.stringify({ compilerOptions: { strict: false, target: "ES2020", baseUrl: "..", paths: { "#lib/*": ["./lib/*"] }, lib: ["ES2020"] } }));
    const tsconfig = fixture.write("tsconfig.json", JSON.stringify({ extends: "./configs/base.json", compilerOptions: { module: "ESNext", moduleResolution: "Bundler", noUnusedLocals: true }, include: ["src"] }));
    for (let i = 0; i < 5; i++) fixture.write(`src/deep/m${i}.ts`, `export const m${i} = ${i};\n`);

    const full = listingHost();
    const expected = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, full.host)!;
    expect(expected.fileNames).toHaveLength(5);
    expect(full.listed.length).toBeGreaterThan(0); // TypeScript's own reading lists the folder

    const ours = listingHost();
    const options = tsconfigCompilerOptions(tsconfig, ours.host);
    expect(options).toEqual(expected.options);
    expect(options).toMatchObject({ strict: false, target: ts.ScriptTarget.ES2020, noUnusedLocals: true, lib: ["lib.es2020.d.ts"] });
    expect(ours.listed).toEqual([]);
  });

  it("are all an analysis project takes from it: starting one lists no folder of the workspace", () => {
    const project = createFixture();
    try {
      for (let i = 0; i < 5; i++) project.write(`src/m${i}.ts`, `export const m${i} = ${i};\n`);
      // The fs module ts-morph and TypeScript read folders through (Node's own, not a copy).
      const fs = createRequire(import.meta.url)("node:fs") as typeof import("node:fs");
      const readdir = vi.spyOn(fs, "readdirSync");
      try {
        new AnalysisProject(project.dir);
        expect(readdir.mock.calls.map(([path]) => String(path)).filter((path) => path.startsWith(project.dir))).toEqual([]);
      } finally {
        readdir.mockRestore();
      }
    } finally {
      project.dispose();
    }
  });

  it("stop the project when the tsconfig is not JSON, as before", () => {
    const broken = createFixture();
    try {
      broken.write("tsconfig.json", '{ "compilerOptions": { "strict": true, ');
      expect(() => new AnalysisProject(broken.dir)).toThrow();
    } finally {
      broken.dispose();
    }
  });
});
