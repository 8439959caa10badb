import { afterEach, describe, expect, it } from "vitest";
import { hoverAt } from "../../server/src/lsp/hover.js";
import { analyzeFixture, disposeFixture } from "../helpers/analyzeFixture.js";

afterEach(disposeFixture);

type Options = Parameters<typeof analyzeFixture>[1];

/** The HL015 findings of a fixture, as the text each one covers. */
const flagged = (source: string, options?: Options) =>
  analyzeFixture(source, options)
    .filter((f) => f.code === "HL015")
    .map((f) => f.text);

const HEADER = `import { Executor, Hook, type Approval, type ToolBackend, type ToolInvocation } from "@hooklens/runtime";
declare const tools: ToolBackend;
const edit: Approval = (inv) => ({ arguments: { ...inv.call.arguments, dryRun: true } });
class Counter extends Hook {
  count = 0;
  beforeTool(_inv: ToolInvocation) {
    this.count++;
  }
}
`;

/** Tools the file registers itself, on a runtime BranchTools. */
const BRANCH_TOOLS = `import { BranchTools, Executor, Hook, Session, type Approval, type Tool } from "@hooklens/runtime";
declare const search: Tool;
declare const refund: Tool;
const edit: Approval = (inv) => ({ arguments: { ...inv.call.arguments, dryRun: true } });
class Counter extends Hook {
  count = 0;
  beforeTool() {
    this.count++;
  }
}
const branch = new Session().newBranch();
`;

describe("HL015 approval-reruns-before-tool: what it flags", () => {
  it("flags a counting hook in an Executor with approval, as information on the hook, naming the effect", () => {
    const findings = analyzeFixture(`${HEADER}export const executor = new Executor(tools, { hooks: [new Counter()], approval: edit });\n`);
    expect(findings).toEqual([expect.objectContaining({ code: "HL015", severity: "information", text: "new Counter()" })]);
    const [{ message, explanation, fix }] = findings as [(typeof findings)[number]];
    expect(message).toBe("Counter.beforeTool runs again when approval edits a call, so its side effects happen twice");
    expect(message.length).toBeLessThanOrEqual(100);
    expect(explanation).toContain("{ arguments }");
    expect(explanation).toContain("`this.count++` (line 7) happens twice");
    expect(explanation).toContain("afterTool and onToolError run once per call");
    expect(fix).toBeUndefined();
  });

  const cases: [string, string, string[], Options?][] = [
    [
      "an object hook counting in an outer variable",
      `${HEADER}let calls = 0;\nconst counting = { name: "counting", beforeTool() { calls += 1; } };\nnew Executor(tools, { hooks: [counting], approval: edit });`,
      ["counting"],
    ],
    [
      "a push onto an outer array",
      `${HEADER}const seen: string[] = [];\nclass Recorder extends Hook { beforeTool(inv: ToolInvocation) { seen.push(inv.call.name); } }\nnew Executor(tools, { hooks: [new Recorder()], approval: edit });`,
      ["new Recorder()"],
    ],
    [
      "a console line",
      `${HEADER}class Audit extends Hook { beforeTool(inv: ToolInvocation) { console.info("tool", inv.call.name); } }\nnew Executor(tools, { hooks: [new Audit()], approval: edit });`,
      ["new Audit()"],
    ],
    [
      "a logger held by the hook",
      `${HEADER}class Audit extends Hook { constructor(private readonly logger: { info(m: string): void }) { super(); }\n  beforeTool(inv: ToolInvocation) { this.logger.info(inv.call.name); } }\nnew Executor(tools, { hooks: [new Audit({ info() {} })], approval: edit });`,
      ["new Audit({ info() {} })"],
    ],
    [
      "an awaited request (I/O)",
      `${HEADER}class Notify extends Hook { async beforeTool() { await fetch("https://audit.invalid/tool"); } }\nnew Executor(tools, { hooks: [new Notify()], approval: edit });`,
      ["new Notify()"],
    ],
    [
      "an arrow-valued field",
      `${HEADER}class Tally extends Hook { n = 0; beforeTool = () => { this.n += 1; }; }\nnew Executor(tools, { hooks: [new Tally()], approval: edit });`,
      ["new Tally()"],
    ],
    ["an inherited beforeTool", `${HEADER}class Child extends Counter {}\nnew Executor(tools, { hooks: [new Child()], approval: edit });`, ["new Child()"]],
    ["hooks from a const array, spread", `${HEADER}const hooks = [new Counter()];\nnew Executor(tools, { hooks: [...hooks], approval: edit });`, ["new Counter()"]],
    ["options in a const with shorthand properties", `${HEADER}const approval = edit;\nconst hooks = [new Counter()];\nconst options = { hooks, approval };\nnew Executor(tools, options);`, ["new Counter()"]],
    [
      "an inline async approval that can edit",
      `${HEADER}new Executor(tools, { hooks: [new Counter()], approval: async (inv) => (inv.call.arguments["path"] ? { arguments: { path: "/tmp" } } : true) });`,
      ["new Counter()"],
    ],
    [
      "a hook class imported from another file",
      `import { Executor, type Approval, type ToolBackend } from "@hooklens/runtime";\nimport { Counter } from "./counter";\ndeclare const tools: ToolBackend;\ndeclare const approve: Approval;\nnew Executor(tools, { hooks: [new Counter()], approval: approve });`,
      ["new Counter()"],
      { extra: { "counter.ts": `import { Hook } from "@hooklens/runtime";\nexport class Counter extends Hook {\n  n = 0;\n  beforeTool() { this.n++; }\n}\n` } },
    ],
    ["an inline approval that spreads the call and names arguments", `${HEADER}new Executor(tools, { hooks: [new Counter()], approval: (inv) => ({ ...inv.call, arguments: {} }) });`, ["new Counter()"]],
    ["an aliased import of the Executor", `${HEADER.replace("{ Executor,", "{ Executor as Runner,")}new Runner(tools, { hooks: [new Counter()], approval: edit });`, ["new Counter()"]],
    [
      "a runtime that cannot be resolved (import specifier only)",
      `import { Executor, Hook } from "@hooklens/runtime";\nclass Counter extends Hook { n = 0; beforeTool() { this.n++; } }\nnew Executor({}, { hooks: [new Counter()], approval: () => ({ arguments: {} }) });`,
      ["new Counter()"],
      { runtime: "missing" },
    ],
  ];

  cases.push(
    [
      "a BranchTools with a tool marked confirm",
      `${BRANCH_TOOLS}const tools = new BranchTools(branch);\ntools.register(search);\ntools.register(refund, { confirm: true });\nnew Executor(tools, { hooks: [new Counter()], approval: edit });`,
      ["new Counter()"],
    ],
    [
      "a confirm tool registered in place, in a chain",
      `${BRANCH_TOOLS}new Executor(new BranchTools(branch).register(search).register(refund, { confirm: true }), { hooks: [new Counter()], approval: edit });`,
      ["new Counter()"],
    ],
    [
      "a BranchTools handed to code that may register more",
      `${BRANCH_TOOLS}declare function addTools(tools: BranchTools): void;\nconst tools = new BranchTools(branch);\naddTools(tools);\nnew Executor(tools, { hooks: [new Counter()], approval: edit });`,
      ["new Counter()"],
    ],
    [
      "a confirm flag the file cannot read (a variable)",
      `${BRANCH_TOOLS}declare const needsApproval: boolean;\nconst tools = new BranchTools(branch).register(refund, { confirm: needsApproval });\nnew Executor(tools, { hooks: [new Counter()], approval: edit });`,
      ["new Counter()"],
    ],
  );

  it.each(cases)("flags %s", (_label, source, texts, options) => {
    expect(flagged(source, options)).toEqual(texts);
  });

  it("says where an imported hook's effect is", () => {
    const [finding] = analyzeFixture(
      `import { Executor, type Approval, type ToolBackend } from "@hooklens/runtime";\nimport { Counter } from "./counter";\ndeclare const tools: ToolBackend;\ndeclare const approve: Approval;\nnew Executor(tools, { hooks: [new Counter()], approval: approve });`,
      { extra: { "counter.ts": `import { Hook } from "@hooklens/runtime";\nexport class Counter extends Hook {\n  n = 0;\n  beforeTool() { this.n++; }\n}\n` } },
    ).filter((f) => f.code === "HL015");
    expect(finding?.explanation).toContain("`this.n++` (counter.ts:4)");
  });
});

describe("HL015 approval-reruns-before-tool: what it leaves alone", () => {
  const clean: [string, string, Options?][] = [
    ["an Executor without approval (confirm tools are refused, nothing re-runs)", `${HEADER}new Executor(tools, { hooks: [new Counter()] });`],
    ["approval: null", `${HEADER}new Executor(tools, { hooks: [new Counter()], approval: null });`],
    ["an inline approval whose answer names other members only", `${HEADER}new Executor(tools, { hooks: [new Counter()], approval: () => ({ deny: "not now" }) });`],
    ["an approval that can only say yes or no", `${HEADER}new Executor(tools, { hooks: [new Counter()], approval: async (inv) => inv.spec.name !== "rm" || { deny: "not rm" } });`],
    [
      "a beforeTool that only reads and short-circuits",
      `import { Executor, Hook, ShortCircuit, type Approval, type ToolBackend, type ToolInvocation } from "@hooklens/runtime";\ndeclare const tools: ToolBackend;\ndeclare const edit: Approval;\nclass Cached extends Hook { beforeTool(inv: ToolInvocation) { const q = inv.call.arguments["query"]; let n = 0; n++; return q === "returns" ? new ShortCircuit(Math.log(n)) : null; } }\nnew Executor(tools, { hooks: [new Cached()], approval: edit });`,
    ],
    ["effects in afterTool only (it runs once per call)", `${HEADER}class After extends Hook { n = 0; afterTool() { this.n++; } }\nnew Executor(tools, { hooks: [new After()], approval: edit });`],
    ["an effect in a nested function beforeTool only creates", `${HEADER}class Later extends Hook { n = 0; beforeTool() { const bump = () => { this.n++; }; void bump; } }\nnew Executor(tools, { hooks: [new Later()], approval: edit });`],
    [
      "the built-in hooks (their repeat is documented and not the user's to change)",
      `import { Executor, LoggingHook, Rate, RateLimitHook, type Approval, type ToolBackend } from "@hooklens/runtime";\ndeclare const tools: ToolBackend;\ndeclare const edit: Approval;\nnew Executor(tools, { hooks: [new LoggingHook(), new RateLimitHook({ search: new Rate(5, 1) })], approval: edit });`,
    ],
    ["hooks it cannot see (a parameter)", `${HEADER}import type { Hook as H } from "@hooklens/runtime";\nexport const make = (hooks: H[]) => new Executor(tools, { hooks, approval: edit });`],
    ["a look-alike Executor class of the user's own", `${HEADER}class Executor2 { constructor(_t: unknown, _o: object) {} }\nnew Executor2(tools, { hooks: [new Counter()], approval: edit });`],
    [
      "a user class named Executor",
      `import { Hook } from "@hooklens/runtime";\nclass Executor { constructor(_t: unknown, _o: object) {} }\nclass Counter extends Hook { n = 0; beforeTool() { this.n++; } }\nnew Executor({}, { hooks: [new Counter()], approval: () => ({ arguments: {} }) });`,
    ],
  ];

  clean.push(
    [
      "a BranchTools whose registered tools are none marked confirm (the approval step never runs)",
      `${BRANCH_TOOLS}const tools = new BranchTools(branch);\ntools.register(search);\ntools.register(refund, { kind: "payments", confirm: false }).register(search, { cacheable: true });\nnew Executor(tools, { hooks: [new Counter()], approval: edit });`,
    ],
    ["a BranchTools built in place without confirm tools", `${BRANCH_TOOLS}new Executor(new BranchTools(branch).register(search), { hooks: [new Counter()], approval: edit });`],
  );

  it.each(clean)("does not flag %s", (_label, source, options) => {
    expect(flagged(source, options)).toEqual([]);
  });
});

describe("HL015 hover", () => {
  it("shows the rule under the cursor and links its page", () => {
    const source = `${HEADER}new Executor(tools, { hooks: [new Counter()], approval: edit });\n`;
    const findings = analyzeFixture(source);
    const lineStarts = [0, ...[...source.matchAll(/\n/g)].map((m) => m.index + 1)];
    const hover = hoverAt(findings, source.indexOf("new Counter()"), lineStarts, (code) => `https://example.test/${code}.md`);
    const value = hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
    expect(value).toContain("**HookLens HL015** `approval-reruns-before-tool`");
    // The editor shows the headline already; the hover adds the explanation.
    expect(value).toContain("runs every hook's beforeTool again");
    expect(value).toContain("`this.count++` (line 7)");
    expect(value).not.toContain("Counter.beforeTool runs again");
    expect(value).toContain("(https://example.test/HL015.md)");
    expect(hover?.range).toEqual({ start: { line: 9, character: 30 }, end: { line: 9, character: 43 } });
  });
});
