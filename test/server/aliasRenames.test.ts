import { Project } from "ts-morph";
import { describe, expect, it } from "vitest";
import { aliasRenames } from "../../server/src/analyzer/engine/aliasRenames.js";

/** A program of in-memory files, as the analyzer's program would hold them. */
function programOf(files: Record<string, string>) {
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: true, noLib: true, types: [] } });
  for (const [path, text] of Object.entries(files)) project.createSourceFile(path, text);
  return project.getProgram().compilerObject;
}

describe("aliasRenames", () => {
  it("lists the name each aliasing form introduces, and nothing for plain imports and exports", () => {
    const program = programOf({
      "/a.ts": "export const one = 1;\nexport function two() {}\nexport default one;\n",
      "/b.ts": 'import { one as importRenamed } from "./a";\nimport defaultImport from "./a";\nimport * as namespaceImport from "./a";\nimport { two } from "./a";\nexport { two };\n',
      "/c.ts": 'export { one as exportRenamed } from "./a";\nexport * as namespaceExport from "./a";\nexport { two } from "./a";\n',
      "/d.ts": 'import * as forEquals from "./a";\nexport import importEquals = forEquals.one;\n',
      "/e.d.ts": 'declare module "ambient" { export { one as insideModule } from "./a"; }\n',
    });
    // `default` comes only from a.ts's `export default one;` (an export assignment).
    expect([...(aliasRenames(program) ?? [])].sort()).toEqual(
      ["default", "defaultImport", "exportRenamed", "forEquals", "importEquals", "importRenamed", "insideModule", "namespaceExport", "namespaceImport"].sort(),
    );
  });

  it("gives up (null) when the program holds JavaScript, whose CommonJS exports alias too", () => {
    expect(aliasRenames(programOf({ "/a.ts": "export const one = 1;\n", "/b.js": "module.exports = { on: require('./a').one };\n" }))).toBeNull();
  });
});
