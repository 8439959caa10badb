import { writeFileSync } from "node:fs";
import { ts } from "ts-morph";
import { afterAll, describe, expect, it } from "vitest";
import { LibraryParses } from "../../server/src/analyzer/libraryParses.js";
import { createFixture } from "../helpers/fixtureProject.js";

const fixture = createFixture();
afterAll(() => fixture.dispose());

const options: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, noLib: true, types: [] };
const entry = fixture.write(
  "src/agent.ts",
  'import { make } from "pkg";\nimport type { Local } from "./local.js";\n/** The agent. */\nexport const made = make();\nexport type Both = Local | typeof made;\n',
);
const local = fixture.write("src/local.d.ts", "/** A project's own declaration. */\nexport interface Local { id: string }\n");
const pkgIndex = fixture.write("node_modules/pkg/index.d.ts", 'import type { Made } from "./made.js";\n/** Makes one. @returns a new one */\nexport declare function make(): Made;\n');
const pkgMade = fixture.write("node_modules/pkg/made.d.ts", "/** What `make` returns. */\nexport interface Made { size: number }\n");
fixture.write("node_modules/pkg/package.json", JSON.stringify({ name: "pkg", types: "index.d.ts" }));

/** A program built as the analyzer builds one: resolutions recorded, the host handed over from `resolveModuleNames`. */
function build(parses: LibraryParses | undefined, oldProgram?: ts.Program, host = ts.createCompilerHost(options)): { program: ts.Program; host: ts.CompilerHost } {
  host.resolveModuleNames = function (this: unknown, names: string[], containingFile: string) {
    parses?.install(this, () => false);
    return names.map((name) => {
      const resolved = ts.resolveModuleName(name, containingFile, options, host).resolvedModule;
      if (resolved) parses?.noteResolution(containingFile, resolved);
      return resolved;
    });
  };
  return { program: ts.createProgram([entry], options, host, oldProgram), host };
}

const jsDocOf = (program: ts.Program, path: string) => {
  const file = program.getSourceFile(path)!;
  return file.statements.flatMap((statement) => (statement as { jsDoc?: ts.JSDoc[] }).jsDoc ?? []).map((doc) => doc.getText(file));
};

const typeText = (program: ts.Program) => {
  const checker = program.getTypeChecker();
  const alias = program.getSourceFile(entry)!.statements.find(ts.isTypeAliasDeclaration)!;
  return checker.typeToString(checker.getTypeAtLocation(alias.name), undefined, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias);
};

describe("packages' declaration files parsed without JSDoc", () => {
  it("leaves out the JSDoc of a package's files (and of what they import), not of the project's own files", () => {
    const { program } = build(new LibraryParses());
    expect(jsDocOf(program, pkgIndex)).toEqual([]);
    expect(jsDocOf(program, pkgMade)).toEqual([]);
    expect(jsDocOf(program, local)).toEqual(["/** A project's own declaration. */"]);
    expect(jsDocOf(program, entry)).toEqual(["/** The agent. */"]);
    // The same files, parsed the ordinary way, have it: the check above can fail.
    expect(jsDocOf(build(undefined).program, pkgIndex)).toEqual(["/** Makes one. @returns a new one */"]);
  });

  it("gives the checker the same types as an ordinary parse, and every node its parent once the checker has bound the files", () => {
    const ordinary = typeText(build(undefined).program);
    expect(ordinary).toContain("Made");
    const { program } = build(new LibraryParses());
    expect(typeText(program)).toBe(ordinary);
    for (const path of [pkgIndex, pkgMade]) {
      const orphans: string[] = [];
      const visit = (node: ts.Node, parent: ts.Node): void => {
        if (node.parent !== parent) orphans.push(ts.SyntaxKind[node.kind]);
        ts.forEachChild(node, (child) => visit(child, node));
      };
      const file = program.getSourceFile(path)!;
      ts.forEachChild(file, (child) => visit(child, file));
      expect(orphans).toEqual([]);
    }
  });

  it("reuses a parse between programs, and reads a forgotten file again", () => {
    const parses = new LibraryParses();
    const first = build(parses);
    const second = build(parses, first.program, first.host);
    expect(second.program.getSourceFile(pkgMade)).toBe(first.program.getSourceFile(pkgMade));
    writeFileSync(pkgMade, "export interface Made { size: number; colour: string }\n");
    expect(parses.forget(pkgMade)).toBe(true);
    expect(parses.forget(local)).toBe(false);
    const third = build(parses, second.program, second.host);
    expect(third.program.getSourceFile(pkgMade)!.text).toContain("colour");
  });
});
