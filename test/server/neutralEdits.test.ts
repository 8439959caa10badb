import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ALL_RULES } from "../../server/src/analyzer/index.js";
import { AnalysisProject } from "../../server/src/analyzer/index.js";
import type { AnalysisResult } from "../../server/src/analyzer/index.js";
import { createFixture, type Fixture } from "../helpers/fixtureProject.js";

/**
 * Edits whose findings the project may take over from the previous version (moved) instead of
 * analysing again, and edits it must analyse again. Every version is compared with a fresh
 * analysis of the same text by a second project that never reuses anything.
 */
const BASE = [
  `import { HookBus, HookPoint } from "@hooklens/runtime";`,
  `let counter = 1 + 2;`,
  `// an ordinary comment about the bus`,
  `const bus = new HookBus();`,
  `bus.on(HookPoint.API_PRE_CALL, () => { counter = counter * 3; });`,
  `bus.on(HookPoint.TOOL_PRE, (payload: { n: number }) => { payload.n = payload.n + 4; });`,
  `function pick(n: 1): HookBus;`,
  `function pick(n: 2): string;`,
  `function pick(n: number): HookBus | string { return n === 1 ? bus : ""; }`,
  `pick(1).on(HookPoint.API_POST_CALL, () => undefined);`,
  `/* hooklens-disable-next-line HL008 */`,
  `bus.on(HookPoint.SESSION_START, () => { if (counter > 5) counter = 0; });`,
  `export {};`,
  ``,
].join("\n");

let fixture: Fixture;
let file: string;
let edited: AnalysisProject;
let fresh: AnalysisProject;
/** The buffer's current text. */
let current = BASE;

beforeAll(() => {
  fixture = createFixture();
  file = fixture.write("hooks.ts", BASE);
  edited = new AnalysisProject(fixture.dir);
  fresh = new AnalysisProject(fixture.dir);
  edited.setBuffer(file, BASE);
  edited.analyze(file);
});
afterAll(() => fixture.dispose());

/** Applies `text` as the buffer's next version; returns whether the project reused, after checking it equals a fresh analysis. */
function edit(text: string): { reused: boolean; result: AnalysisResult } {
  current = text;
  const before = edited.stats.reusedAnalyses;
  edited.setBuffer(file, text);
  const result = edited.analyze(file);
  fresh.setBuffer(file, text);
  // Giving the rules explicitly makes the project analyse: never a reuse.
  const expected = fresh.analyze(file, { rules: ALL_RULES });
  expect(result).toEqual(expected);
  return { reused: edited.stats.reusedAnalyses > before, result };
}

/** The current text with one change: each edit below is one keystroke-sized change of the version before. */
const replaced = (from: string, to: string) => {
  expect(current).toContain(from);
  return current.replace(from, to);
};

beforeEach(() => void edit(BASE));

describe("edits that cannot change the findings reuse them, moved", () => {
  it("starts from findings on both sides of the edits below", () => {
    const { result } = edit(BASE);
    expect(result.findings.map((f) => f.code)).toEqual(expect.arrayContaining(["HL001", "HL006"]));
  });

  it("a number typed into arithmetic, again and again (moved findings equal a fresh analysis each time)", () => {
    for (const [from, to] of [["1 + 2;", "1 + 12;"], ["1 + 12;", "1 + 123;"], ["1 + 123;", "1 + 9;"], ["1 + 9;", "1 + 0x10;"], ["1 + 0x10;", "1 + 1_000;"], ["1 + 1_000;", "1 + 1.5;"]])
      expect(edit(replaced(from, to)).reused).toBe(true);
    expect(edit(replaced("counter * 3;", "counter * 37;")).reused).toBe(true);
  });

  it("text typed inside an ordinary comment (`*/` means nothing in a line comment)", () => {
    expect(edit(replaced("about the bus", "about the shared bus")).reused).toBe(true);
    expect(edit(replaced("the shared bus", "the bus")).reused).toBe(true);
    expect(edit(replaced("about the bus", "about */ the bus")).reused).toBe(true);
  });
});

describe("edits that may change the findings are analysed again", () => {
  it("a number inside a finding a rule looked at (HL006 on the payload write): its range grows", () => {
    const before = edit(BASE).result.findings.find((f) => f.code === "HL006")!;
    const { reused, result } = edit(replaced("payload.n + 4", "payload.n + 45"));
    expect(reused).toBe(false);
    expect(result.findings.find((f) => f.code === "HL006")!.end).toBe(before.end + 1);
  });

  it("text a rule quoted", () => {
    expect(edit(replaced("payload.n = payload.n", "payload.n = payload.n ")).reused).toBe(false);
  });

  it("a number that picks an overload: the type, and with it a finding, changes", () => {
    const before = edit(BASE).result.findings.filter((f) => f.code === "HL001").length;
    const { reused, result } = edit(replaced("pick(1).on", "pick(2).on"));
    expect(reused).toBe(false);
    expect(result.findings.filter((f) => f.code === "HL001").length).toBe(before - 1);
  });

  it("white space between tokens (not inside a comment or a number)", () => {
    expect(edit(replaced("pick(1).on", "pick(1) .on")).reused).toBe(false);
  });

  it("numbers outside arithmetic (a comparison narrows by value)", () => {
    expect(edit(replaced("counter > 5", "counter > 50")).reused).toBe(false);
  });

  it("a suppression comment, a JSDoc comment, a comment becoming code, a new line", () => {
    for (const [from, to] of [
      ["HL008 */", "HL001 */"],
      ["// an ordinary", "/** an ordinary */ //"],
      ["about the bus", "about the bus\n"],
      ["about the bus", "about the @ts-nocheck bus"],
      ["// an ordinary", "/* an ordinary"],
      ["// an ordinary", "counter++; // an ordinary"],
    ]) {
      edit(BASE);
      expect(edit(replaced(from, to)).reused, `${from} -> ${to}`).toBe(false);
    }
  });

  it("a number turned into something else", () => {
    expect(edit(replaced("1 + 2;", '1 + "2";')).reused).toBe(false);
    expect(edit(replaced('1 + "2";', "1 + 2n;")).reused).toBe(false);
    expect(edit(replaced("1 + 2n;", "1 + 2;")).reused).toBe(false);
    expect(edit(replaced("1 + 2;", "1 + 2x;")).reused).toBe(false);
  });

  it("anything after another file changed", () => {
    const other = fixture.write("other.ts", "export const x = 1;\n");
    edited.setBuffer(other, "export const x = 2;\n");
    fresh.setBuffer(other, "export const x = 2;\n");
    expect(edit(replaced("1 + 2;", "1 + 3;")).reused).toBe(false);
    expect(edit(replaced("1 + 3;", "1 + 4;")).reused).toBe(true);
  });
});

describe("findings that name another line", () => {
  /** Each rule that points at another line in its message or explanation, once. */
  const NAMING_LINES = [
    `import { AgentSpec, Executor, Hook, HookPoint, HookRegistry, Session, Tool, attachHooks, type Approval, type ToolBackend, type ToolInvocation } from "@hooklens/runtime";`,
    `let counter = 1 + 2;`,
    `const registry = new HookRegistry({ hooks: { pre_invoke: () => undefined } });`,
    `registry.preInvoke(() => undefined);`,
    `const spec = new AgentSpec();`,
    `spec.post("search", (_t, _a, _args, result) => ({ ...result, seen: true }));`,
    `attachHooks(new Tool({ funcCallable: () => "plain text", name: "search" }), spec, "search");`,
    `declare const tools: ToolBackend;`,
    `const edit: Approval = (inv) => ({ arguments: { ...inv.call.arguments, dryRun: true } });`,
    `class Counter extends Hook {`,
    `  override beforeTool(_inv: ToolInvocation) {`,
    `    counter++;`,
    `  }`,
    `}`,
    `export const executor = new Executor(tools, { hooks: [new Counter()], approval: edit });`,
    `export async function branchFirst(): Promise<void> {`,
    `  const session = new Session();`,
    `  const branch = session.newBranch();`,
    `  session.hooks.on(HookPoint.TOOL_PRE, () => undefined);`,
    `  await branch.act({ function: "search", arguments: {} });`,
    `}`,
    ``,
  ].join("\n");

  it("are reused after a neutral edit like any other (the line they name cannot move)", () => {
    const local = createFixture();
    try {
      const path = local.write("lines.ts", NAMING_LINES);
      const project = new AnalysisProject(local.dir);
      const first = (project.setBuffer(path, NAMING_LINES), project.analyze(path));
      const namingLines = first.findings.filter((f) => /\bline \d+/.test(`${f.message} ${f.explanation}`)).map((f) => f.code);
      expect(namingLines.sort()).toEqual(["HL004", "HL005", "HL009", "HL015"]);
      for (const n of [3, 34, 5]) {
        const text = NAMING_LINES.replace("1 + 2;", `1 + ${n};`);
        const before = project.stats.reusedAnalyses;
        project.setBuffer(path, text);
        const result = project.analyze(path);
        expect(project.stats.reusedAnalyses).toBe(before + 1);
        const fresh = new AnalysisProject(local.dir);
        fresh.setBuffer(path, text);
        expect(result).toEqual(fresh.analyze(path));
      }
    } finally {
      local.dispose();
    }
  });
});
