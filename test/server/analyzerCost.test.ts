import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ts } from "ts-morph";
import { LibraryParses } from "../../server/src/analyzer/engine/libraryParses.js";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import { compilerFactoryOf, programBuilt } from "../../server/src/analyzer/engine/tsMorphInternals.js";
import { Workspace } from "../../server/src/lsp/workspace.js";
import { spyOnChecker } from "../helpers/checkerSpy.js";
import { createFixture, type Fixture } from "../helpers/fixtureProject.js";

let fixture: Fixture | undefined;
afterEach(() => {
  fixture?.dispose();
  fixture = undefined;
});

const DORMANT = "bus.on(HookPoint.API_PRE_CALL, () => undefined);\n";

describe("analyzer cost: files that cannot reach the runtime", () => {
  it("answers a plain file from syntax alone: no rules, no program, not even parsed into the project", () => {
    fixture = createFixture();
    const helper = fixture.write("helper.ts", "export const twice = (n: number) => n * 2;\n");
    const plain = fixture.write("plain.ts", 'import { twice } from "./helper.js";\nexport const four = twice(2);\n');
    const project = new AnalysisProject(fixture.dir);
    project.setBuffer(plain, 'import { twice } from "./helper.js";\nexport const six = twice(3);\n');
    expect(project.analyze(plain)).toEqual({
      findings: [],
      failures: [],
      notices: [],
    });
    expect(project.stats).toEqual({ checkedAnalyses: 0, skippedAnalyses: 1, reusedAnalyses: 0, filesListed: 1, filesScanned: 0, packageFilesParsed: 0, heldFileLookups: 0, buffersReparsedIncrementally: 0, buffersParsedWhole: 0, programsBuiltWhole: 0 });
    expect(project.has(plain)).toBe(false);
    expect(project.has(helper)).toBe(false);
  });

  it("asks the type checker nothing for a plain file, even one that the program of an open hook file holds", () => {
    fixture = createFixture();
    const plainText = "export const twice = (n: number) => n * 2;\n";
    const plain = fixture.write("plain.ts", plainText);
    // A hook point held in a constant is a question for the checker: the hook file's analysis builds a program and a checker.
    const hookText = `import { HookBus, HookPoint } from "@hooklens/runtime";\nimport { twice } from "./plain.js";\nconst bus = new HookBus();\nconst point = HookPoint.TOOL_PRE;\nbus.on(point, () => twice(1));\n`;
    const hooks = fixture.write("hooks.ts", hookText);
    const project = new AnalysisProject(fixture.dir);
    const hookFile = project.setText(hooks, hookText);
    project.analyze(hooks);
    expect(project.has(plain)).toBe(true); // loaded into that program as an import of the hook file
    const program = hookFile.getProject().getProgram().compilerObject;
    const questions = spyOnChecker(program.getTypeChecker());
    try {
      const checked = project.stats.checkedAnalyses;
      for (let edit = 1; edit <= 3; edit++) {
        project.setBuffer(plain, plainText.replace("n * 2", `n * ${edit + 2}`));
        expect(project.analyze(plain)).toEqual({ findings: [], failures: [], notices: [] });
      }
      expect(questions.calls).toBe(0);
      expect(project.stats.checkedAnalyses).toBe(checked);
      // Nor was a program (and with it a checker) built for them.
      expect(hookFile.getProject().getProgram().compilerObject).toBe(program);
      // A question put through ts-morph reaches the spy (so the observations above can fail).
      hookFile.getVariableDeclarationOrThrow("point").getType();
      expect(questions.calls).toBeGreaterThan(0);
    } finally {
      questions.restore();
    }
  });

  it("still analyses a file that imports the runtime, including through require()", () => {
    fixture = createFixture();
    const project = new AnalysisProject(fixture.dir);
    const esm = fixture.write("esm.ts", `import { HookBus, HookPoint } from "@hooklens/runtime";\nconst bus = new HookBus();\n${DORMANT}`);
    expect(project.analyze(esm).findings.map((f) => f.code)).toEqual(["HL001"]);
    const cjs = fixture.write("cjs.ts", 'const runtime = require("@hooklens/runtime");\nexport {};\n');
    expect(project.usesHookLibrary(cjs)).toBe(true);
    expect(project.stats.checkedAnalyses).toBe(1);
  });

  it("counts a file as runtime-using when a project module it imports re-exports the runtime", () => {
    fixture = createFixture();
    fixture.write("lib/hooks.ts", 'export { HookBus, HookPoint } from "@hooklens/runtime";\n');
    fixture.write("lib/index.ts", 'export * from "./hooks.js";\n');
    const user = fixture.write("user.ts", `import { HookBus, HookPoint } from "./lib/index.js";\nconst bus = new HookBus();\n${DORMANT}`);
    const project = new AnalysisProject(fixture.dir);
    expect(project.usesHookLibrary(user)).toBe(true);
    expect(project.analyze(user).findings.map((f) => f.code)).toEqual(["HL001"]);
  });

  it("counts a module of an import cycle that hands the runtime on, whichever module of the cycle was asked about first", () => {
    fixture = createFixture();
    fixture.write("a.ts", 'export * from "@hooklens/runtime";\nexport * from "./b.js";\n');
    fixture.write("b.ts", 'export * from "./a.js";\nexport const fromB = 1;\n');
    const viaA = fixture.write("viaA.ts", 'import { HookBus } from "./a.js";\nexport const bus = new HookBus();\n');
    const viaB = fixture.write("viaB.ts", `import { HookBus, HookPoint } from "./b.js";\nconst bus = new HookBus();\n${DORMANT}`);
    const project = new AnalysisProject(fixture.dir);
    expect(project.usesHookLibrary(viaA)).toBe(true); // decides a.ts first, b.ts while a.ts is still open
    expect(project.usesHookLibrary(viaB)).toBe(true);
    expect(project.analyze(viaB).findings.map((f) => f.code)).toEqual(["HL001"]);
  });

  it("counts an import of a runtime object a project module exports (import, then export)", () => {
    fixture = createFixture();
    fixture.write(
      "bus.ts",
      'import { HookBus } from "@hooklens/runtime";\nconst shared = new HookBus();\nexport { shared };\nexport const unrelated = 1;\n',
    );
    const user = fixture.write(
      "user.ts",
      'import { shared } from "./bus.js";\nimport { HookPoint } from "@hooklens/runtime";\nshared.on(HookPoint.ARTIFACT_CREATED, () => 1);\n',
    );
    const viaString = fixture.write("viaString.ts", 'import { shared } from "./bus.js";\nshared.on("artifact.created", () => 1);\n');
    const unrelated = fixture.write("unrelated.ts", 'import { unrelated } from "./plain.js";\nexport const x = unrelated;\n');
    fixture.write("plain.ts", 'import { HookBus } from "@hooklens/runtime";\nexport const unrelated = 1;\nexport type Kept = HookBus | undefined;\n');
    const project = new AnalysisProject(fixture.dir);
    expect(project.usesHookLibrary(user)).toBe(true);
    expect(project.analyze(viaString).findings.map((f) => f.code)).toEqual(["HL001"]);
    // plain.ts exports a type made from the runtime's: a module-level answer counts its importers in.
    expect(project.usesHookLibrary(unrelated)).toBe(true);
  });

  it("does not count a module that imports the runtime but exports nothing made from it", () => {
    fixture = createFixture();
    fixture.write("setup.ts", 'import { HookBus } from "@hooklens/runtime";\nnew HookBus();\nexport const version = "1";\n');
    const user = fixture.write("user.ts", 'import { version } from "./setup.js";\nexport const v = version;\n');
    const project = new AnalysisProject(fixture.dir);
    expect(project.usesHookLibrary(user)).toBe(false);
  });

  it("notices when an edit makes a module start re-exporting the runtime", () => {
    fixture = createFixture();
    const barrel = fixture.write("barrel.ts", "export const nothing = 0;\n");
    const user = fixture.write("user.ts", 'import { nothing } from "./barrel.js";\nexport const n = nothing;\n');
    const project = new AnalysisProject(fixture.dir);
    expect(project.usesHookLibrary(user)).toBe(false);
    project.setBuffer(barrel, 'export * from "@hooklens/runtime";\nexport const nothing = 0;\n');
    expect(project.usesHookLibrary(user)).toBe(true);
  });
});

describe("analyzer cost: other files open in the editor", () => {
  const built = (project: AnalysisProject, path: string, text: string) =>
    programBuilt(project.setText(path, text).getProject());

  it("builds no program for a hook file syntax settles while a plain file is open (edited, unsaved)", () => {
    fixture = createFixture();
    const plain = fixture.write("plain.ts", "export const twice = (n: number) => n * 2;\n");
    const hookText = `import { HookBus, HookPoint } from "@hooklens/runtime";\nconst bus = new HookBus();\n${DORMANT}`;
    const hooks = fixture.write("hooks.ts", hookText);
    const project = new AnalysisProject(fixture.dir);
    project.setBuffer(plain, "export const twice = (n: number) => n * 3;\n");
    project.analyze(plain);
    project.setBuffer(hooks, hookText);
    expect(project.analyze(hooks).findings.map((f) => f.code)).toEqual(["HL001"]);
    expect(built(project, hooks, hookText)).toBe(false);
  });

  it("reads an open module's edited text, not the file on disk, by syntax and in the checker's program", () => {
    fixture = createFixture();
    // On disk: a valid hook point, and a post hook that returns an object. In the editor: neither.
    const points = fixture.write("points.ts", 'export const point = "tool.pre";\n');
    const handlers = fixture.write("handlers.ts", "export const post = () => ({});\n");
    const hookText = `import { AgentSpec, HookBus } from "@hooklens/runtime";\nimport { point } from "./points.js";\nimport { post } from "./handlers.js";\nconst bus = new HookBus();\nbus.on(point, () => undefined);\nnew AgentSpec().post("x", post);\n`;
    const hooks = fixture.write("hooks.ts", hookText);
    const project = new AnalysisProject(fixture.dir);
    project.setBuffer(points, 'export const point = "api.pre_call";\n');
    project.setBuffer(handlers, 'export const post = () => "done";\n');
    project.setBuffer(hooks, hookText);
    const codes = (analysed: AnalysisProject) => analysed.analyze(hooks).findings.map((f) => f.code).sort();
    // HL001 from the checker (a hook point held in a constant), HL004 from the handler's body read by syntax.
    expect(codes(project)).toEqual(["HL001", "HL004"]);
    // The checker alone reads the same texts; the files on disk give neither finding.
    const byChecker = new AnalysisProject(fixture.dir, { followImports: false });
    for (const [path, text] of [[points, 'export const point = "api.pre_call";\n'], [handlers, 'export const post = () => "done";\n'], [hooks, hookText]] as const) byChecker.setBuffer(path, text);
    expect(codes(byChecker)).toEqual(["HL001", "HL004"]);
    expect(codes(new AnalysisProject(fixture.dir))).toEqual([]);
  });
});

describe("analyzer cost: superseded versions and memory", () => {
  it("does not analyse a version that was superseded before its turn, nor cache it", () => {
    fixture = createFixture();
    const path = fixture.path("agent.ts");
    const uri = pathToFileURL(path).href;
    const workspace = new Workspace();
    workspace.setFolders([pathToFileURL(fixture.dir).href]);
    const text = `import { HookBus, HookPoint } from "@hooklens/runtime";\nconst bus = new HookBus();\n${DORMANT}`;
    expect(workspace.analyze(uri, 1, text, () => true).result.findings).toEqual([]);
    expect(workspace.cached(uri, 1, text)).toBeUndefined();
    expect(workspace.analyze(uri, 2, text, () => false).result.findings.map((f) => f.code)).toEqual(["HL001"]);
  });

  it("drops a closed file, and the project once nothing in it is open", () => {
    fixture = createFixture();
    const workspace = new Workspace();
    workspace.setFolders([pathToFileURL(fixture.dir).href]);
    const uri = pathToFileURL(fixture.path("agent.ts")).href;
    const text = `import { HookBus, HookPoint } from "@hooklens/runtime";\nconst bus = new HookBus();\n${DORMANT}`;
    workspace.analyze(uri, 1, text, () => false);
    expect(workspace.projectCount).toBe(1);
    workspace.close(uri);
    expect(workspace.cached(uri, 1, text)).toBeUndefined();
    expect(workspace.projectCount).toBe(0);
  });

  it("drops modules only a closed file imported", () => {
    fixture = createFixture();
    const helperA = fixture.write("a.ts", "export const a = 1;\n");
    const helperB = fixture.write("b.ts", "export const b = 2;\n");
    // A hook point held in a constant is a question for the checker: each analysis builds a program, which loads the helper.
    const hookModule = (helper: string) =>
      `import { HookBus, HookPoint } from "@hooklens/runtime";\nimport { ${helper} } from "./${helper}.js";\nconst bus = new HookBus();\nconst point = HookPoint.TOOL_PRE;\nbus.on(point, () => ${helper});\n`;
    const first = fixture.write("first.ts", hookModule("a"));
    const second = fixture.write("second.ts", hookModule("b"));
    const project = new AnalysisProject(fixture.dir);
    for (const path of [first, second]) project.setBuffer(path, readFileSync(path, "utf8"));
    project.analyze(first);
    project.analyze(second);
    expect(project.has(helperA) && project.has(helperB)).toBe(true);
    project.remove(first);
    project.analyze(second);
    expect(project.has(first)).toBe(false);
    expect(project.has(helperA)).toBe(false);
    expect(project.has(helperB)).toBe(true);
  });

  it("prunes after a close once an analysis builds a program, not by building one for an analysis syntax settles", () => {
    fixture = createFixture();
    const handler = fixture.write("h1.ts", "export function audit(payload: unknown) { console.log(payload); }\n");
    const settled = (extra: string) => `import { HookBus, HookPoint } from "@hooklens/runtime";\n${extra}const bus = new HookBus();\nbus.on(HookPoint.TOOL_PRE, () => undefined);\n`;
    const first = fixture.write("first.ts", settled('import { audit } from "./h1.js";\nexport const tap = audit;\n').replace("() => undefined", "audit"));
    const second = fixture.write("second.ts", settled(""));
    // A hook point held in a constant is a question for the checker.
    const third = fixture.write("third.ts", settled("").replace("HookPoint.TOOL_PRE", "point").replace("const bus", "const point = HookPoint.TOOL_PRE;\nconst bus"));
    const project = new AnalysisProject(fixture.dir);
    const built = () => programBuilt(project.setText(second, readFileSync(second, "utf8")).getProject());
    for (const path of [first, second, third]) project.setBuffer(path, readFileSync(path, "utf8"));
    project.analyze(first);
    expect(project.has(handler)).toBe(true); // read by syntax, following the import of `audit`
    project.remove(first);
    project.analyze(second);
    expect(built()).toBe(false);
    expect(project.has(handler)).toBe(true); // the prune waits
    project.analyze(third); // builds a program, and then prunes
    expect(project.has(handler)).toBe(false);
    expect(project.has(second)).toBe(true);
  });

  it("rebuilds the program whole when a file is opened, not at the first edit after it", () => {
    fixture = createFixture();
    const helper = fixture.write("helper.ts", "export const label = (n: number) => `#${n}`;\n");
    // A hook point held in a constant is a question for the checker: every analysis builds a program.
    const text = `import { HookBus, HookPoint } from "@hooklens/runtime";\nimport { label } from "./helper.js";\nconst bus = new HookBus();\nconst point = HookPoint.TOOL_PRE;\nbus.on(point, () => label(1));\n`;
    const first = fixture.write("first.ts", text);
    const second = fixture.write("second.ts", text);
    const project = new AnalysisProject(fixture.dir);
    for (const [path, opened] of [[first, 1], [second, 2]] as const) {
      project.setBuffer(path, text);
      project.analyze(path);
      expect(project.has(helper)).toBe(true);
      // The files that program loaded (helper.ts, the runtime, the libs) are not roots of the next one.
      for (let edit = 1; edit <= 3; edit++) {
        project.setBuffer(path, text.replace("label(1)", `label(${edit + 1})`));
        project.analyze(path);
      }
      expect(project.stats.programsBuiltWhole).toBe(opened);
      project.remove(path);
    }
  });

  it("asks ts-morph whether it holds each package file once, until it adds or removes a file", () => {
    fixture = createFixture();
    fixture.write("node_modules/pkg/package.json", JSON.stringify({ name: "pkg", types: "index.d.ts" }));
    const declarations = fixture.write("node_modules/pkg/index.d.ts", "export declare function make(): string;\n");
    const text = `import { AgentSpec } from "@hooklens/runtime";\nimport { make } from "pkg";\nnew AgentSpec().post("search", () => make());\n`;
    const path = fixture.write("hooks.ts", text);
    const project = new AnalysisProject(fixture.dir);
    const codes = () => project.analyze(path).findings.map((f) => f.code);
    project.setBuffer(path, text);
    expect(codes()).toEqual(["HL004"]);
    // The first program adds the files it loads to ts-morph as it goes: their lookups are made again once.
    project.setBuffer(path, text.replace('"search"', '"search0"'));
    expect(codes()).toEqual(["HL004"]);
    const lookups = project.stats.heldFileLookups;
    expect(lookups).toBeGreaterThan(0);
    for (let edit = 1; edit <= 3; edit++) {
      project.setBuffer(path, text.replace('"search"', `"search${edit}"`));
      expect(codes()).toEqual(["HL004"]);
    }
    expect(project.stats.heldFileLookups).toBe(lookups);
    // The package's declarations opened and edited: the project holds them now, and the program reads the buffer.
    project.setBuffer(declarations, "export declare function make(): { text: string };\n");
    project.setBuffer(path, text);
    expect(codes()).toEqual([]);
    expect(project.stats.heldFileLookups).toBeGreaterThan(lookups);
  });

  it("wraps no argument of the calls the rules ask about that register nothing (their wrappers would be forgotten at the next edit)", () => {
    fixture = createFixture();
    const text = `import { HookBus, HookPoint } from "@hooklens/runtime";\nconst bus = new HookBus();\nbus.on(HookPoint.API_PRE_CALL, () => undefined);\nexport class Store { readonly #items = new Map<string, number>(); add() { this.#items.set("key", 1); } }\nnew Store().add();\n`;
    const path = fixture.write("hooks.ts", text);
    const project = new AnalysisProject(fixture.dir);
    const file = project.setText(path, text);
    expect(project.analyze(path).findings.map((f) => f.code)).toEqual(["HL001"]);
    const factory = compilerFactoryOf(file)!;
    const wrapped = (literal: string) => {
      const found: ts.Node[] = [];
      const visit = (node: ts.Node): void => {
        if (ts.isStringLiteral(node) && node.text === literal) found.push(node);
        ts.forEachChild(node, visit);
      };
      visit(file.compilerNode);
      return found.map((node) => factory.getExistingNodeFromCompilerNode(node) !== undefined);
    };
    expect(wrapped("key")).toEqual([false]);
    // The registration's own argument is wrapped (so the observation above can fail).
    const point = file.compilerNode.statements[2]!;
    expect(factory.getExistingNodeFromCompilerNode(((point as ts.ExpressionStatement).expression as ts.CallExpression).arguments[0]!)).toBeDefined();
  });

  // The runtime's `node:` imports reach @types/node, whose entry pulls in most of its files by
  // `/// <reference path>`. The prune once dropped those after every closed file (no import
  // reaches them), and the next program parsed them all again.
  it("keeps the package files that still open files reach by `/// <reference>` when a file closes", () => {
    fixture = createFixture();
    // A hook point held in a constant is a question for the checker: the analysis builds a program.
    const hookModule = `import { HookBus, HookPoint } from "@hooklens/runtime";\nconst bus = new HookBus();\nconst point = HookPoint.TOOL_PRE;\nbus.on(point, () => undefined);\n`;
    const first = fixture.write("first.ts", hookModule);
    const second = fixture.write("second.ts", hookModule);
    const project = new AnalysisProject(fixture.dir);
    project.analyze(first);
    project.analyze(second);
    const parsed = project.stats.packageFilesParsed;
    expect(parsed).toBeGreaterThan(50); // @types/node, undici-types, zod
    project.remove(first);
    project.analyze(second); // prunes what only `first` reached
    project.setBuffer(second, `${hookModule}// edited\n`);
    project.analyze(second); // a new program
    expect(project.has(first)).toBe(false);
    expect(project.stats.packageFilesParsed).toBe(parsed);
  });

  it("parses library declaration files once for all the projects that share them (the CLI's batches)", () => {
    fixture = createFixture();
    const hookModule = `import { HookBus, HookPoint } from "@hooklens/runtime";\nconst bus = new HookBus();\nconst point = HookPoint.TOOL_PRE;\nbus.on(point, () => undefined);\n`;
    const first = fixture.write("first.ts", hookModule);
    const second = fixture.write("second.ts", hookModule);
    let parses = 0;
    const libraryParses = new LibraryParses(() => parses++);
    new AnalysisProject(fixture.dir, { libraryParses }).analyze(first);
    const once = parses;
    expect(once).toBeGreaterThan(50); // the standard library, @types/node, the runtime, zod
    expect(new AnalysisProject(fixture.dir, { libraryParses }).analyze(second).findings).toEqual([]);
    expect(parses).toBe(once);
  });
});

describe("analyzer cost: what the rules ask the type checker", () => {
  it("asks about a runtime-using file's hook code only, nothing about its ordinary code", () => {
    fixture = createFixture();
    const hookCode = [
      `import { AgentSpec, HookBus, HookPoint, HookRegistry, Session } from "@hooklens/runtime";`,
      `const bus = new HookBus();`,
      // A hook point held in a constant, a handler's payload, a tool's post hook: questions for the checker.
      `const point = HookPoint.TOOL_PRE;`,
      `bus.on(point, (payload) => String(payload));`,
      `bus.on(HookPoint.API_PRE_CALL, () => undefined);`,
      `new HookRegistry({ streamHandlers: { delta: (chunk: unknown) => String(chunk) } });`,
      `new AgentSpec().post("search", () => "done");`,
      `export function start(): Session { const session = new Session(); session.newBranch(); return session; }`,
      ``,
    ].join("\n");
    const ordinaryCode = [
      `export interface Item { id: number; name: string; tags: string[] }`,
      `export class Store<T extends { id: number }> {`,
      `  readonly #items = new Map<number, T>();`,
      `  add(item: T): this { this.#items.set(item.id, item); return this; }`,
      `  filter(predicate: (item: T) => boolean): T[] { return [...this.#items.values()].filter(predicate); }`,
      `}`,
      `export function total(items: readonly Item[], factor = 2): number {`,
      `  let sum = 0;`,
      `  for (const item of items) if (!item.tags.includes("skip")) sum += item.name.length * factor;`,
      `  return sum + new Store<Item>().add({ id: 1, name: "a", tags: [] }).filter(() => true).length;`,
      `}`,
      `export const names = (items: Item[]) => items.map(({ name }) => name.toUpperCase()).join(", ");`,
      ``,
    ].join("\n");
    const text = hookCode + ordinaryCode;
    const path = fixture.write("hooks.ts", text);
    const project = new AnalysisProject(fixture.dir);
    const file = project.setText(path, text);
    const questions = spyOnChecker(file.getProject().getProgram().compilerObject.getTypeChecker());
    try {
      expect(project.analyze(path).findings.map((f) => f.code)).toEqual(["HL001", "HL003", "HL004"]);
      const asked = questions.nodes.filter((node) => node.getSourceFile().fileName === path);
      expect(asked.length).toBeGreaterThan(0); // the hook code's questions (so the observation below can fail)
      expect(asked.filter((node) => node.getStart() >= hookCode.length).map((node) => node.getText())).toEqual([]);
    } finally {
      questions.restore();
    }
  });
});
