import { dirname } from "node:path";
import { Node, ts, type SourceFile } from "ts-morph";
import { afterAll, describe, expect, it } from "vitest";
import { FileIndex } from "../../server/src/analyzer/engine/fileIndex.js";
import { importedDeclarationOf, projectModulesOf } from "../../server/src/analyzer/engine/importedDeclarations.js";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import { PackageNames } from "../../server/src/analyzer/engine/reach/packageNames.js";
import { RuntimeResolver } from "../../server/src/analyzer/packs/hooklens/runtimeResolver.js";
import { RUNTIME_PACKAGE } from "../../server/src/analyzer/packs/hooklens/runtimePackage.js";
import { isNamePosition, soleBinding } from "../../server/src/analyzer/engine/soleBinding.js";
import { SyntacticRuntime } from "../../server/src/analyzer/packs/hooklens/syntacticRuntime.js";
import { createFixture, type Fixture } from "../helpers/fixtureProject.js";
import { MAINS, MODULES } from "./importCorpus.js";

const CLASSES = ["HookBus", "Session", "HookRegistry", "AgentSpec", "CodingToolkit"];

type Mode = "resolved" | "missing";

/** One project folder per runtime mode, holding the corpus; each hook module is opened in one AnalysisProject, as an editor would. */
const corpora = new Map<Mode, { fixture: Fixture; project: AnalysisProject }>();
function corpus(mode: Mode) {
  let made = corpora.get(mode);
  if (!made) {
    const fixture = createFixture(mode);
    for (const [path, text] of Object.entries({ ...MODULES, ...Object.fromEntries(Object.entries(MAINS).map(([name, text]) => [`${name}.ts`, text])) })) fixture.write(path, text);
    made = { fixture, project: new AnalysisProject(fixture.dir) };
    corpora.set(mode, made);
  }
  return made;
}
afterAll(() => {
  for (const { fixture } of corpora.values()) fixture.dispose();
});

function open(mode: Mode, name: string): SourceFile {
  const { fixture, project } = corpus(mode);
  return project.setText(fixture.path(`${name}.ts`), MAINS[name]!);
}

/** Every reference of the file to a name it imports by name or as a default (the questions `functionOf` and the rules' declaration look-ups ask). */
function importedReferences(file: SourceFile): Node[] {
  const index = FileIndex.of(file);
  return file.getDescendants().filter((node) => {
    if (!Node.isIdentifier(node) || isNamePosition(node.compilerNode) || node.getFirstAncestor(Node.isImportDeclaration)) return false;
    const binding = soleBinding(node.compilerNode, index.rawIdentifiers(node.compilerNode.text));
    return binding !== undefined && (ts.isImportSpecifier(binding) || ts.isImportClause(binding));
  });
}

const where = (node: Node | undefined) => node && `${node.getSourceFile().getBaseName()}:${node.getStartLineNumber()} ${node.getKindName()}`;

/** The checker's declarations of what an imported name refers to (the alias chain followed to its end). */
function checkerDeclarations(node: Node): Node[] {
  const symbol = node.getSymbol();
  return (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations() ?? [];
}

describe("a declaration found behind an import is the checker's", () => {
  const cases = (["resolved", "missing"] as const).flatMap((mode) => Object.keys(MAINS).map((name) => [mode, name] as const));
  it.each(cases)("runtime %s: %s", (mode, name) => {
    const file = open(mode, name);
    const references = importedReferences(file);
    expect(references.length).toBeGreaterThan(3);
    // Syntax first, before anything builds a program; then the checker, whose program takes the same trees.
    const bySyntax = references.map((node) => importedDeclarationOf(node as never));
    const differ = references
      .map((node, i) => ({ at: `${node.getStartLineNumber()}: ${node.getText()}`, syntax: bySyntax[i], checker: checkerDeclarations(node) }))
      .filter(({ syntax, checker }) => syntax !== undefined && (checker.length !== 1 || checker[0] !== syntax))
      .map(({ at, syntax, checker }) => ({ at, syntax: where(syntax), checker: checker.map(where) }));
    expect(differ).toEqual([]);
  });

  it.each(cases)("runtime %s: %s, the resolver's answers about receivers and callees", (mode, name) => {
    const file = open(mode, name);
    const checker = file.getProject().getTypeChecker();
    const modules = projectModulesOf(file.getProject());
    expect(modules).toBeDefined();
    const bySyntax = new RuntimeResolver(checker, { modules });
    const byChecker = new RuntimeResolver(checker);
    const asked: { node: Node; ask: (resolver: RuntimeResolver) => unknown }[] = [];
    file.forEachDescendant((node) => {
      if (Node.isPropertyAccessExpression(node)) {
        const receiver = node.getExpression();
        for (const className of CLASSES) asked.push({ node: receiver, ask: (r) => `${className}: ${r.isInstanceOf(receiver, className)}` });
        asked.push({ node: receiver, ask: (r) => `class: ${r.runtimeClassOf(receiver, CLASSES)}` });
        asked.push({ node: receiver, ask: (r) => `made: ${r.madeAs(receiver) ?? "?"}` });
        asked.push({ node, ask: (r) => `is on: ${r.is(node, "on")}, hook: ${r.is(node, "hook")}` });
      }
      if (Node.isCallExpression(node) || Node.isNewExpression(node)) asked.push({ node: node.getExpression(), ask: (r) => `callee: ${r.exportName(node.getExpression())}` });
    });
    // `madeAs` is syntax's alone (undefined from the checker's resolver): it may only ever agree with the checker's class.
    const differ = asked
      .map(({ node, ask }) => ({ at: `${node.getStartLineNumber()}: ${node.getText()}`, syntax: ask(bySyntax), checker: ask(byChecker) }))
      .filter(({ syntax, checker }) => syntax !== checker && !(String(checker) === "made: ?"))
      .map(({ at, syntax }) => ({ at, syntax }));
    expect(differ).toEqual([]);
    // Whatever syntax says an instance is made as, the checker says it is an instance of.
    for (const { node, ask } of asked.filter(({ ask }) => String(ask(bySyntax)).startsWith("made: ") && String(ask(bySyntax)) !== "made: ?")) {
      const made = String(ask(bySyntax)).slice("made: ".length);
      expect(byChecker.isInstanceOf(node as never, made), `${node.getText()} made as ${made}`).toBe(true);
    }
  });
});

/** What syntax must settle on its own (with the runtime resolved): [module, name (its last mention), declaration kind]. */
const SETTLED: [string, string, string][] = [
  ...["auditTool", "noop", "preCreate", "blocker", "stopper", "streamText", "deltaOnly", "renamedLocal", "local"].map((n): [string, string, string] => ["handlers", n, "FunctionDeclaration"]),
  ...["logTool", "postHandler", "postObject", "postNumber", "postNull", "check", "checkBlock", "fnExpression", "options"].map((n): [string, string, string] => ["handlers", n, "VariableDeclaration"]),
  ["handlers", "Handlers", "ClassDeclaration"],
  // Behind barrels the program holds (they hand the runtime on), and through `export { local as name }`.
  ["barrels", "hookAudit", "FunctionDeclaration"],
  ["barrels", "viaChain", "FunctionDeclaration"],
  ["barrels", "relayedHook", "FunctionDeclaration"],
  ["barrels", "hookBlocker", "FunctionDeclaration"],
  ["barrels", "post2", "VariableDeclaration"],
  ["barrels", "post3", "VariableDeclaration"],
  ["barrels", "hookPost", "VariableDeclaration"],
  // A nested declaration of the same name does not hide the module's own; a `let` is still its one declaration.
  ["tricky", "shadowed", "FunctionDeclaration"],
  ["tricky", "reassigned", "VariableDeclaration"],
  ["tricky", "named", "VariableDeclaration"],
  // Default exports: the function or class, the name `export default` names, or the statement itself for an expression.
  ["tricky", "defaultHandler", "FunctionDeclaration"],
  ["tricky", "namedDefault", "FunctionDeclaration"],
  ["tricky", "f", "VariableDeclaration"],
  ["defaults", "auditDefault", "FunctionDeclaration"],
  ["defaults", "arrow", "ExportAssignment"],
  ["defaults", "Handler", "ClassDeclaration"],
  ["defaults", "paren", "ExportAssignment"],
  ["defaults", "letDefault", "VariableDeclaration"],
  ["defaults", "importedHook", "FunctionDeclaration"],
  ["defaults", "relayedDefault", "FunctionDeclaration"],
  ["defaults", "fnDefault", "FunctionDeclaration"],
  ["defaults", "hookDefault", "FunctionDeclaration"],
];

/** What syntax must leave to the checker: [module, name]. */
const UNSETTLED: [string, string][] = [
  // A barrel that hands nothing of the runtime on: the program may leave the module behind it out.
  ["barrels", "auditTool"],
  ["barrels", "renamedLog"],
  ["barrels", "relayed"],
  ["barrels", "logTool"],
  ["barrels", "ambiguous"],
  ["barrels", "typeOnly"],
  ...["viaVar", "merged", "over", "notExported", "dts", "jsHandler", "missing"].map((n): [string, string] => ["tricky", n]),
  // Merged with a namespace; behind a module the program may leave out.
  ...["mergedDefault", "importedPlain", "plainDefault"].map((n): [string, string] => ["defaults", n]),
];

/** Receivers syntax must settle: [module, text (last mention), class]; and those it must not. */
const MADE: [string, string, string][] = [
  ["shared", "bus", "HookBus"],
  ["shared", "registry", "HookRegistry"],
  ["shared", "hooks", "HookBus"],
  ["shared", "sessionHooks", "HookBus"],
  ["shared", "session", "Session"],
  ["shared", "spec", "AgentSpec"],
  ["shared", "toolkit", "CodingToolkit"],
  ["shared", "letBus", "HookBus"],
  ["shared", "sessionBus", "Session"],
  ["shared", "session.hooks", "HookBus"],
  ["shared", "barrelBus", "HookBus"],
  ["shared", "barrelRegistry", "HookRegistry"],
  ["shared", "relayedBus", "HookBus"],
  ["shared", "relayedSpec", "AgentSpec"],
  ["shared", "hooklibBus", "HookBus"],
];
const NOT_MADE: [string, string][] = [
  ...["typedBus", "castBus", "reassignedBus", "varBus", "mergedBus", "subclassBus", "dtsBus"].map((n): [string, string] => ["shared", n]),
  ["sharedNarrowed", "bus"],
  ["sharedNarrowed", "registry"],
];

describe("what syntax settles behind an import", () => {
  const lastMention = (file: SourceFile, text: string) => {
    const node = file
      .getDescendants()
      .findLast((n) => n.getText() === text && !(Node.isIdentifier(n) && isNamePosition(n.compilerNode)) && !n.getFirstAncestor(Node.isImportDeclaration));
    if (!node) throw new Error(`no ${text}`);
    return node;
  };

  it("follows the common forms to their declaration, and leaves the others to the checker", () => {
    const kind = ([name, text]: [string, string, ...unknown[]]) => importedDeclarationOf(lastMention(open("resolved", name), text) as never)?.getKindName();
    expect(SETTLED.map((row) => [row[0], row[1], kind(row)])).toEqual(SETTLED);
    expect(UNSETTLED.map((row) => [...row, kind(row)])).toEqual(UNSETTLED.map((row) => [...row, undefined]));
  });

  it("knows a bus, registry or spec made in a sibling module, unless the runtime is unresolved there", () => {
    const packages = new PackageNames();
    const made = (mode: Mode, name: string, text: string) => {
      const file = open(mode, name);
      const syntax = new SyntacticRuntime((path) => packages.nameFor(dirname(path)) === RUNTIME_PACKAGE, projectModulesOf(file.getProject()));
      return syntax.constructedWith(lastMention(file, text));
    };
    expect(MADE.map(([name, text]) => [name, text, made("resolved", name, text)])).toEqual(MADE);
    expect(NOT_MADE.map(([name, text]) => [name, text, made("resolved", name, text)])).toEqual(NOT_MADE.map((row) => [...row, undefined]));
    expect(MADE.map(([name, text]) => [name, text, made("missing", name, text)])).toEqual(MADE.map(([name, text]) => [name, text, undefined]));
  });
});
