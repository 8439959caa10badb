import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { ts } from "ts-morph";
import { afterAll, describe, expect, it } from "vitest";
import { LibraryParses } from "../../server/src/analyzer/engine/libraryParses.js";
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

describe("the standard library and @types packages parsed without JSDoc", () => {
  const standardLibrary = dirname(createRequire(import.meta.url).resolve("typescript/lib/lib.es5.d.ts"));
  const typesIndex = fixture.write("node_modules/@types/thing/index.d.ts", "/** A global thing. */\ndeclare const thing: { size: number };\n");
  const withLibs: ts.CompilerOptions = { ...options, noLib: false, lib: ["lib.es5.d.ts"], types: ["thing"], typeRoots: [dirname(dirname(typesIndex))] };

  const program = (parses: LibraryParses | undefined): ts.Program => {
    const host = ts.createCompilerHost(withLibs);
    // ts-morph's TypeScript ships without lib files: read them from the typescript package, as ts-morph serves them.
    host.getDefaultLibLocation = () => standardLibrary;
    // As the analyzer's program: the host reaches the parses when modules are resolved (the entry imports "pkg").
    host.resolveModuleNames = function (this: unknown, names: string[], containingFile: string) {
      parses?.install(this, () => false);
      return names.map((name) => ts.resolveModuleName(name, containingFile, withLibs, host).resolvedModule);
    };
    return ts.createProgram([entry], withLibs, host);
  };

  it("leaves out their JSDoc, and keeps the types they declare", () => {
    const lib = (p: ts.Program) => p.getSourceFiles().find((file) => file.fileName.endsWith("/typescript/lib/lib.es5.d.ts"))!;
    const ordinary = program(undefined);
    const lean = program(new LibraryParses());
    expect(jsDocOf(ordinary, lib(ordinary).fileName).length).toBeGreaterThan(0);
    expect(jsDocOf(lean, lib(lean).fileName)).toEqual([]);
    expect(jsDocOf(ordinary, typesIndex)).toEqual(["/** A global thing. */"]);
    expect(jsDocOf(lean, typesIndex)).toEqual([]);
    const globalType = (p: ts.Program) => p.getTypeChecker().getSymbolsInScope(p.getSourceFile(entry)!, ts.SymbolFlags.Variable).find((s) => s.name === "thing");
    expect(globalType(lean)).toBeDefined();
    expect(lean.getSemanticDiagnostics(lean.getSourceFile(entry)).length).toBe(ordinary.getSemanticDiagnostics(ordinary.getSourceFile(entry)).length);
  });
});
