import { ts } from "ts-morph";
import { afterAll, describe, expect, it } from "vitest";
import { sharePackageJsonCache } from "../../server/src/analyzer/engine/packageJsonCache.js";
import { createFixture } from "../helpers/fixtureProject.js";

const fixture = createFixture();
afterAll(() => fixture.dispose());

const options: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, noLib: true };
const entry = fixture.write("src/agent.ts", 'import { x } from "pkg";\nexport const y = x;\n');
const declarations = fixture.write("node_modules/pkg/index.d.ts", "export declare const x: number;\n");
fixture.write("node_modules/pkg/package.json", JSON.stringify({ name: "pkg", types: "index.d.ts" }));

/**
 * Builds a program, then rebuilds it after an edit as the analyzer does on every keystroke, and
 * counts how often TypeScript read a package.json. Modules resolve without package.json (to the
 * fixture's one declaration file), so every read counted is the program's own lookup.
 */
function packageJsonReadsPerRebuild(share: boolean): number[] {
  let reads = 0;
  let text = "";
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (path) => {
    if (path.endsWith("/package.json")) reads++;
    return readFile(path);
  };
  host.getSourceFile = (path, languageVersion) => (path === entry ? ts.createSourceFile(path, text, languageVersion) : getSourceFile(path, languageVersion));
  host.resolveModuleNames = function (this: unknown, names: string[]) {
    if (share) sharePackageJsonCache(this, options, fixture.dir);
    return names.map(() => ({ resolvedFileName: declarations, extension: ts.Extension.Dts, isExternalLibraryImport: true }));
  };
  const counts: number[] = [];
  let program: ts.Program | undefined;
  for (let edit = 0; edit < 4; edit++) {
    text = `import { x } from "pkg";\nexport const y = x + ${edit};\n`;
    reads = 0;
    program = ts.createProgram([entry], options, host, program);
    expect(program.getSourceFile(declarations)).toBeDefined();
    counts.push(reads);
  }
  return counts;
}

describe("the package.json facts of a program, kept between rebuilds", () => {
  it("are read while the first programs fill the cache, and not again on later rebuilds after an edit", () => {
    const [first, second, ...later] = packageJsonReadsPerRebuild(true);
    // The first program hands over the host; the second fills the cache; from the third on it is read.
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(0);
    expect(later).toEqual([0, 0]);
  });

  it("are read again on every rebuild without the shared cache (what the cache saves)", () => {
    const counts = packageJsonReadsPerRebuild(false);
    expect(counts.every((reads) => reads > 0)).toBe(true);
  });
});
