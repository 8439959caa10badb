import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Project, ts, type Node, type SourceFile } from "ts-morph";
import { ALL_RULES } from "../../server/src/analyzer/index.js";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import type { AnalysisResult } from "../../server/src/analyzer/index.js";
import { compilerFactoryOf, type CompilerFactory } from "../../server/src/analyzer/engine/tsMorphInternals.js";
import { createFixture, REPO_ROOT, type Fixture } from "../helpers/fixtureProject.js";

const ANALYZER_DIR = join(REPO_ROOT, "server/src/analyzer");

/**
 * An edited buffer is re-parsed incrementally (incrementalReparse.ts): TypeScript's parser reuses
 * the unchanged nodes, moved in place, and ts-morph keeps the wrappers of those it does not move.
 * Every version's findings are compared with those of a whole parse of the same text (another
 * file of a second project, so nothing of the edited tree is reused there), and the ts-morph
 * wrappers left on the edited tree with what ts-morph answers on a fresh tree.
 */
const BASE = [
  `import { HookBus, HookPoint, HookRegistry } from "@hooklens/runtime";`,
  `let counter = 1;`,
  `const seen: string[] = [];`,
  `export const bus = new HookBus();`,
  `bus.on(HookPoint.API_PRE_CALL, (payload) => { counter += 1; seen.push(String(payload)); });`,
  `bus.on(HookPoint.TOOL_PRE, (payload: { n: number }) => { payload.n = payload.n + 4; });`,
  `/* a comment between statements */`,
  `export const registry = new HookRegistry({`,
  `  streamHandlers: {`,
  `    // the honest arity`,
  `    delta: (chunk: unknown) => seen.push(String(chunk)),`,
  `  },`,
  `});`,
  `export function total(items: readonly { score?: number; name: string }[]): number {`,
  `  let sum = 0;`,
  `  for (const item of items) sum += item.score ?? item.name.length;`,
  `  return sum;`,
  `}`,
  `// reset when a session starts`,
  `bus.on(HookPoint.SESSION_START, () => { if (counter > 5) counter = 0; });`,
  ``,
].join("\n");

let fixture: Fixture;
let file: string;
let edited: AnalysisProject;
let reference: AnalysisProject;
let current = BASE;
let step = 0;

beforeAll(() => {
  fixture = createFixture();
  file = fixture.write("hooks.ts", BASE);
  edited = new AnalysisProject(fixture.dir);
  reference = new AnalysisProject(fixture.dir);
  edited.setBuffer(file, BASE);
  edited.analyze(file);
});
afterAll(() => fixture.dispose());

/** What a whole parse of `text` gives: analysed as a new file of the reference project. */
function wholeParseAnalysis(text: string): AnalysisResult {
  const path = fixture.path(`reference-${step++}.ts`);
  reference.setBuffer(path, text);
  const result = reference.analyze(path, { rules: ALL_RULES });
  reference.remove(path);
  return result;
}

function edit(text: string): AnalysisResult {
  current = text;
  edited.setBuffer(file, text);
  const result = edited.analyze(file, { rules: ALL_RULES });
  expect(result, text).toEqual(wholeParseAnalysis(text));
  return result;
}

const replaced = (from: string, to: string) => {
  expect(current).toContain(from);
  return current.replace(from, to);
};

describe("incremental re-parse of an edited buffer", () => {
  it("parses a buffer whole once, then only the edited region", () => {
    const before = { ...edited.stats };
    edit(replaced("let counter = 1;", "let counter = 12;"));
    edit(replaced("  return sum;", "  return sum * 2;"));
    expect(edited.stats.buffersReparsedIncrementally - before.buffersReparsedIncrementally).toBe(2);
    expect(edited.stats.buffersParsedWhole - before.buffersParsedWhole).toBe(0);
    expect(before.buffersParsedWhole).toBe(1);
  });

  it("findings stay those of a whole parse over insertions, deletions, strings and syntax errors", () => {
    const hl001 = () => edit(current).findings.filter((f) => f.code === "HL001").length;
    const dormant = hl001();
    expect(dormant).toBeGreaterThan(0);
    // A new dormant registration near the top: every node after it moves.
    edit(replaced("export const bus = new HookBus();", "export const bus = new HookBus();\nbus.on(HookPoint.API_POST_CALL, () => undefined);"));
    expect(hl001()).toBe(dormant + 1);
    edit(replaced("bus.on(HookPoint.API_POST_CALL, () => undefined);\n", ""));
    expect(hl001()).toBe(dormant);
    // Inside strings and the last statement.
    edit(replaced("const seen: string[] = [];", 'const seen: string[] = ["typed"];'));
    edit(replaced('["typed"]', '["typed", "more"]'));
    edit(replaced("if (counter > 5) counter = 0;", "if (counter > 50) counter = 0; seen.length = 0;"));
    // A syntax error that swallows what follows, then its repair.
    edit(replaced("  let sum = 0;", "  let sum = (0;"));
    edit(replaced("  let sum = (0;", "  let sum = 0;"));
    edit(replaced("HookPoint.TOOL_PRE, (payload", "HookPoint.TOOL_PRE, ((payload"));
    edit(replaced("HookPoint.TOOL_PRE, ((payload", "HookPoint.TOOL_PRE, (payload"));
    // Deleting a whole statement in the middle, and putting it back.
    edit(replaced("/* a comment between statements */\n", ""));
    edit(replaced("export const registry", "/* a comment between statements */\nexport const registry"));
    edit(BASE);
  });

  it("keeps no wrapper of a node that left the tree, and ts-morph answers on kept ones as on a fresh tree", () => {
    const factory = compilerFactoryOf(edited.setText(file, current))!;
    let movedWithWrapper = 0;
    for (const [from, to, held] of [
      ["  let sum = 0;", "  let sum = 10;", "tokens"],
      ["let counter = 1;", "let counter = 1 + 1;", "comments"],
      ["if (counter > 5)", "if (counter >= 5)", "tokens"],
      ["const seen: string[] = [];", 'const seen: string[] = ["a"];', "comments"],
      ["(chunk: unknown)", "(chunk: string)", "tokens"],
    ] as const) {
      if (held === "comments") {
        // A whole parse and an analysis: the wrappers are the rules' own, and hold no token list.
        edited.remove(file);
        edited.setBuffer(file, current);
        edited.analyze(file);
      }
      const before = edited.setText(file, current);
      const wrapped = wrappedNodes(before, factory);
      // ts-morph then holds tokens, syntax lists and comments for each node (kept from moving), or
      // only comment ranges on the wrappers themselves (moved with their nodes, then cleared).
      for (const node of wrapped) {
        const wrapper = wrap(before, node);
        if (held === "tokens") answers(wrapper);
        else wrapper.getLeadingCommentRanges();
      }
      const positions = new Map(wrapped.map((node) => [node, node.pos]));
      const wrappers = new Map(wrapped.map((node) => [node, factory.getExistingNodeFromCompilerNode(node)!]));
      edit(replaced(from, to));
      const after = edited.setText(file, current);
      for (const node of wrapped) {
        if (rootOf(node) !== after.compilerNode) expect(factory.hasCompilerNode(node), ts.SyntaxKind[node.kind]).toBe(false);
        else if (node.pos !== positions.get(node) && !wrappers.get(node)!.wasForgotten()) movedWithWrapper++;
      }
      expectSameAnswers(after, factory);
    }
    expect(movedWithWrapper).toBeGreaterThan(0);
  });

  it("a cancelled analysis keeps the previous version's neutral-edit check sound", () => {
    // An analysis the next version may reuse (analyses given their rules are not kept).
    edited.setBuffer(file, BASE);
    expect(edited.analyze(file)).toEqual(wholeParseAnalysis(BASE));
    const reusedBefore = edited.stats.reusedAnalyses;
    // Re-parsed, then cut short: the reusable analysis of BASE stays, its tree consumed.
    let checks = 0;
    edited.setBuffer(file, BASE.replace("let counter = 1;", "let counter = 1234;"));
    edited.analyze(file, { isCancelled: () => checks++ > 0 });
    // BASE with an edit inside a comment after the cancelled edit: neutral against BASE.
    const text = BASE.replace("a comment between", "a comment typed between");
    edited.setBuffer(file, text);
    const result = edited.analyze(file);
    expect(edited.stats.reusedAnalyses).toBe(reusedBefore + 1);
    expect(result).toEqual(wholeParseAnalysis(text));
    current = text;
  });
});

describe("what the incremental re-parse relies on", () => {
  it("no analyzer code asks ts-morph for token lists of nodes it does not wrap", () => {
    // getDescendantsOfKind / getFirstDescendantByKind of a token kind and isInStringAtPos make
    // ts-morph hold token lists for descendants without wrapping them; incrementalReparse.ts can
    // then not tell which nodes must not move (FileIndex lists a file's nodes instead).
    const offenders = readdirSync(ANALYZER_DIR, { recursive: true, encoding: "utf8" })
      .filter((path) => path.endsWith(".ts"))
      .filter((path) => /\.(getDescendantsOfKind|getFirstDescendantByKind|isInStringAtPos)\(/.test(readFileSync(join(ANALYZER_DIR, path), "utf8")));
    expect(offenders).toEqual([]);
  });
});

/** Compiler nodes of `file` that have a ts-morph wrapper (every ancestor of a wrapped node is wrapped). */
function wrappedNodes(file: SourceFile, factory: CompilerFactory): ts.Node[] {
  const nodes: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    if (!factory.hasCompilerNode(node)) return;
    nodes.push(node);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(file.compilerNode, visit);
  return nodes;
}

function rootOf(node: ts.Node): ts.Node {
  let current = node;
  while (current.parent) current = current.parent;
  return current;
}

/**
 * Every wrapper on the edited tree gives the same children (tokens and syntax lists included),
 * positions and comments as the same node of a fresh ts-morph tree of the same text.
 */
function expectSameAnswers(file: SourceFile, factory: CompilerFactory): void {
  const fresh = new Project({ useInMemoryFileSystem: true }).createSourceFile("/fresh.ts", file.getFullText());
  {
    const pairs: [Node, Node][] = [];
    const visit = (edited: ts.Node, other: ts.Node): void => {
      expect(other.kind).toBe(edited.kind);
      if (factory.hasCompilerNode(edited)) pairs.push([wrap(file, edited), wrap(fresh, other)]);
      const a: ts.Node[] = [];
      const b: ts.Node[] = [];
      ts.forEachChild(edited, (child) => void a.push(child));
      ts.forEachChild(other, (child) => void b.push(child));
      expect(b.length).toBe(a.length);
      a.forEach((child, i) => visit(child, b[i]!));
    };
    visit(file.compilerNode, fresh.compilerNode);
    expect(pairs.length).toBeGreaterThan(20);
    for (const [kept, other] of pairs) expect(answers(kept), kept.getKindName()).toEqual(answers(other));
  }
}

function wrap(file: SourceFile, node: ts.Node): Node {
  return (file as unknown as { _getNodeFromCompilerNode(node: ts.Node): Node })._getNodeFromCompilerNode(node);
}

function answers(node: Node): unknown {
  return {
    range: [node.getPos(), node.getStart(), node.getEnd()],
    text: node.getText(),
    children: node.getChildren().map((child) => [child.getKindName(), child.getPos(), child.getEnd()]),
    parentSyntaxList: node.getParentSyntaxList()?.getPos(),
    comments: node.getLeadingCommentRanges().map((range) => [range.getPos(), range.getEnd()]),
    // Statements or members with the comments between them, as ts-morph lists them.
    listed: node.getChildSyntaxList()?.getChildren().map((child) => [child.getKindName(), child.getPos(), child.getEnd()]),
  };
}
