import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Node, ts, type PropertyAccessExpression, type SourceFile } from "ts-morph";
import { afterAll, describe, expect, it } from "vitest";
import { FileIndex } from "../../server/src/analyzer/engine/fileIndex.js";
import { projectModulesOf } from "../../server/src/analyzer/engine/importedDeclarations.js";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import { PackageNames } from "../../server/src/analyzer/engine/reach/packageNames.js";
import { RuntimeResolver } from "../../server/src/analyzer/packs/hooklens/runtimeResolver.js";
import { RUNTIME_PACKAGE } from "../../server/src/analyzer/packs/hooklens/runtimePackage.js";
import { SyntacticRuntime } from "../../server/src/analyzer/packs/hooklens/syntacticRuntime.js";
import { createFixture, REPO_ROOT, type Fixture } from "../helpers/fixtureProject.js";
import { MAINS, PACKAGES, PROJECT_MODULES, SETTLED } from "./packageCorpus.js";
import { programBuilt } from "../../server/src/analyzer/engine/tsMorphInternals.js";

type Mode = "resolved" | "missing";

/** Export names the rules ask members about (`is(x.member, name)`), the members' own names among them. */
const ASKED = ["hook", "HookBus", "HookPoint", "HookRegistry", "Session", "on", "attach", "equal", "join"];

const fixtures = new Map<Mode, Fixture>();
function fixtureFor(mode: Mode): Fixture {
  let fixture = fixtures.get(mode);
  if (!fixture) {
    fixture = createFixture(mode);
    for (const [path, text] of Object.entries({ ...PACKAGES, ...PROJECT_MODULES })) fixture.write(path, text);
    for (const [name, text] of Object.entries(MAINS)) fixture.write(`${name}.ts`, text);
    // Node's builtins as a project has them: `@types/node` in its node_modules, named by `types`
    // (TypeScript 6 includes no `@types` package unasked).
    mkdirSync(fixture.path("node_modules/@types"), { recursive: true });
    symlinkSync(join(REPO_ROOT, "node_modules/@types/node"), fixture.path("node_modules/@types/node"), "dir");
    const tsconfig = fixture.path("tsconfig.json");
    const { compilerOptions } = JSON.parse(readFileSync(tsconfig, "utf8")) as { compilerOptions: Record<string, unknown> };
    writeFileSync(tsconfig, JSON.stringify({ compilerOptions: { ...compilerOptions, types: ["node"] } }));
    fixtures.set(mode, fixture);
  }
  return fixture;
}
afterAll(() => {
  for (const fixture of fixtures.values()) fixture.dispose();
});

/** Each hook module opened alone in its own project, as an editor opens one file. */
function open(mode: Mode, name: string, options?: { followImports?: boolean }): { project: AnalysisProject; file: SourceFile; path: string } {
  const fixture = fixtureFor(mode);
  const path = fixture.path(`${name}.ts`);
  const project = new AnalysisProject(fixture.dir, options);
  return { project, file: project.setText(path, MAINS[name]!), path };
}

/** `r.w` where `r` is a name (the receivers the shortcut is about; others are asked too, and must not be settled wrongly). */
function memberAccesses(file: SourceFile): PropertyAccessExpression[] {
  return FileIndex.of(file).wrapped(ts.SyntaxKind.PropertyAccessExpression, (access) => ts.isIdentifier(access.expression) && ts.isIdentifier(access.name));
}

/** Every mention of an imported name outside the imports (`assert` in `assert.equal`, a called `fileURLToPath`). */
function importedNameMentions(file: SourceFile): Node[] {
  const imported = new Set(file.getImportDeclarations().flatMap((d) => [d.getDefaultImport(), d.getNamespaceImport(), ...d.getNamedImports().map((n) => n.getAliasNode() ?? n.getNameNode())]).flatMap((n) => (n ? [n.getText()] : [])));
  return file.getDescendantsOfKind(ts.SyntaxKind.Identifier).filter((id) => {
    const parent = id.getParentOrThrow();
    if (!imported.has(id.getText()) || id.getFirstAncestorByKind(ts.SyntaxKind.ImportDeclaration)) return false;
    return !Node.isPropertyAccessExpression(parent) || parent.getExpression() === id;
  });
}

describe("a member of a package import is settled from syntax only as the checker answers", () => {
  const cases = (["resolved", "missing"] as const).flatMap((mode) => Object.keys(MAINS).map((name) => [mode, name] as const));
  it.each(cases)("%s: %s", (mode, name) => {
    const { file } = open(mode, name);
    const packages = new PackageNames();
    const syntax = new SyntacticRuntime((path) => packages.nameFor(dirname(path)) === RUNTIME_PACKAGE, projectModulesOf(file.getProject()));
    const settled = new Set<string>();
    const answers = [...importedNameMentions(file), ...memberAccesses(file)].map((access) => ({ access, bySyntax: syntax.exportName(access) }));
    for (const { access, bySyntax } of answers) if (bySyntax !== undefined) settled.add(access.getText());
    // Asked before the checker exists: syntax built no program for any of it.
    expect(programBuilt(file.getProject())).toBe(false);
    const checker = new RuntimeResolver(file.getProject().getTypeChecker());
    for (const { access, bySyntax } of answers) {
      // The runtime export a member names, as syntax settles it, is the checker's answer.
      if (bySyntax !== undefined) expect(`${access.getText()}: ${bySyntax}`).toBe(`${access.getText()}: ${checker.exportName(access)}`);
      // And where syntax cannot tell, no question about it may be answered wrongly on the way (`is` asks several names).
      for (const asked of ASKED) expect(`${access.getText()} is ${asked}: ${new RuntimeResolver(file.getProject().getTypeChecker(), { modules: projectModulesOf(file.getProject()) }).is(access, asked)}`).toBe(`${access.getText()} is ${asked}: ${checker.is(access, asked)}`);
    }
    // Package members are the ones settled; the relays of the runtime (and everything beside a file that adds to other modules) are not.
    const expected = SETTLED[name]!.filter((text) => answers.some(({ access }) => access.getText() === text));
    expect([...settled].filter((text) => !isOwnMember(file, text)).sort()).toEqual([...expected].sort());
  });

  it("Node's builtins are the real ones: the checker finds `assert.equal` and `path.join` in @types/node", () => {
    const { file } = open("resolved", "builtins");
    for (const text of ["assert.equal", "path.join", "fileURLToPath"]) {
      const node = [...memberAccesses(file), ...importedNameMentions(file)].find((n) => n.getText() === text)!;
      const symbol = Node.isPropertyAccessExpression(node) ? node.getNameNode().getSymbol() : node.getSymbol()?.getAliasedSymbol();
      expect(symbol?.getDeclarations()[0]?.getSourceFile().getFilePath()).toContain("/node_modules/@types/node/");
    }
  });

  it("the corpus holds members the checker does take for the runtime's, under other names", () => {
    const seen: string[] = [];
    for (const name of ["wrapped", "augmented", "ambient", "pathAugmented"]) {
      const { file } = open("resolved", name);
      const checker = new RuntimeResolver(file.getProject().getTypeChecker());
      for (const access of memberAccesses(file)) if (access.getName() !== "hook" && checker.is(access, "hook")) seen.push(access.getText());
    }
    expect(seen).toEqual(expect.arrayContaining(["wrapper.on", "wrapper.attach", "deep.on", "deep.listen", "hoisted.subscribe", "nm.on", "relay.on", "virtual.on"]));
  });
});


/** The runtime's own names and their members (`hook`, `HookPoint.X`): settled by the earlier shortcuts, not this change's. */
function isOwnMember(_file: SourceFile, text: string): boolean {
  return /^(hook|HookBus|HookPoint)(\.|$)/.test(text);
}

describe("each rule reports the same with package members settled by syntax as with the checker alone", () => {
  const cases = (["resolved", "missing"] as const).flatMap((mode) => Object.keys(MAINS).map((name) => [mode, name] as const));
  it.each(cases)("%s: %s", (mode, name) => {
    const findings = (options?: { followImports?: boolean }) => {
      const { project, path } = open(mode, name, options);
      const result = project.analyze(path);
      expect(result.failures).toEqual([]);
      return result.findings.map((f) => `${f.code} ${f.start}-${f.end} ${f.message}${f.fix ? ` [fix: ${JSON.stringify(f.fix.edits)}]` : ""}`);
    };
    const bySyntax = findings();
    expect(bySyntax).toEqual(findings({ followImports: false }));
    if (mode === "resolved" && name === "wrapped") expect(bySyntax.filter((f) => f.startsWith("HL001")).length).toBeGreaterThan(5);
  });

  it("analyses a hook module that calls Node's builtins and a plain package without a program", () => {
    for (const name of ["builtins", "plain"]) {
      const { project, file, path } = open("resolved", name);
      project.analyze(path);
      expect(programBuilt(file.getProject())).toBe(false);
    }
  });

  // Each was built a program for by `assert.equal` (or `z.object`, `path.join`) alone.
  it.each(["examples/session/builtins.ts", "examples/tool/processors.ts", "examples/package/quickStart.ts", "examples/middleware/cachedAnswers.ts"])(
    "analyses %s without a program",
    (relative) => {
      const path = join(REPO_ROOT, relative);
      const project = new AnalysisProject(REPO_ROOT);
      const file = project.setText(path, readFileSync(path, "utf8"));
      expect(project.analyze(path).failures).toEqual([]);
      expect(programBuilt(file.getProject())).toBe(false);
    },
  );
});
