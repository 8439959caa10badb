import { afterEach, describe, expect, it } from "vitest";
import { hoverAt } from "../../server/src/lsp/hover.js";
import { analyzeFixture, disposeFixture } from "../helpers/analyzeFixture.js";

afterEach(disposeFixture);

type Options = Parameters<typeof analyzeFixture>[1];

/** The HL005 findings of a fixture, as the text each one covers. */
const flagged = (source: string, options?: Options) =>
  analyzeFixture(source, options)
    .filter((f) => f.code === "HL005")
    .map((f) => f.text);

describe("HL005 branch-before-bus: what it flags", () => {
  it("flags newBranch() before the first hooks read, as a warning on the call, naming the session and the line", () => {
    const source = `import { HookPoint, Session } from "@hooklens/runtime";
const session = new Session();
const branch = session.newBranch();
session.hooks.on(HookPoint.TOOL_PRE, () => undefined);
export { branch };
void branch.act([]);
`;
    const findings = analyzeFixture(source);
    expect(findings).toEqual([expect.objectContaining({ code: "HL005", severity: "warning", text: "session.newBranch()" })]);
    const [{ message, explanation, fix }] = findings as [(typeof findings)[number]];
    expect(message).toBe("Branch included before session.hooks exists: tool hooks never see its act() calls");
    expect(explanation).toContain("session.newBranch() includes a branch before session's HookBus exists");
    expect(explanation).toContain("first created on line 4 (reading session.hooks)");
    expect(explanation).toContain("TOOL_PRE/TOOL_POST/TOOL_ERROR");
    expect(explanation).toContain("Read session.hooks before including branches");
    expect(fix).toBeUndefined();
  });

  const cases: [string, string, string, Options?][] = [
    [
      "includeBranches() with a branch variable",
      `import { Branch, Session } from "@hooklens/runtime";
       const session = new Session();
       const extra = new Branch();
       session.includeBranches(extra);
       export const bus = session.hooks;
       void extra.act([]);`,
      "session.includeBranches(extra)",
    ],
    [
      "branches given to the constructor",
      `import { Branch, Session } from "@hooklens/runtime";
       const first = new Branch();
       const session = new Session({ defaultBranch: first, branches: [new Branch()] });
       export const bus = session.hooks;
       void first.act([]);`,
      "new Session({ defaultBranch: first, branches: [new Branch()] })",
    ],
    [
      "a bus created by routeMessagePersistence()",
      `import { Session, routeMessagePersistence } from "@hooklens/runtime";
       const session = new Session();
       const sibling = session.newBranch();
       routeMessagePersistence(session, session.defaultBranch!, () => undefined);
       export { sibling };
       void sibling.act([]);`,
      "session.newBranch()",
    ],
    [
      "an aliased import",
      `import { Session as AgentSession } from "@hooklens/runtime";
       const s = new AgentSession();
       s.newBranch().act([]);
       export const bus = s.hooks;`,
      "s.newBranch()",
    ],
    [
      "a namespace import",
      `import * as hl from "@hooklens/runtime";
       const s = new hl.Session();
       s.newBranch().act([]);
       export const bus = s.hooks;`,
      "s.newBranch()",
    ],
    [
      "a re-export through a local module",
      `import { Conversation } from "./runtime";
       const s = new Conversation();
       s.newBranch({ name: "worker" }).act([]);
       export const bus = s.hooks;`,
      's.newBranch({ name: "worker" })',
      { extra: { "runtime.ts": `export { Session as Conversation } from "@hooklens/runtime";\n` } },
    ],
    [
      "a session inside a function body",
      `import { Session } from "@hooklens/runtime";
       export async function run() {
         const session = new Session();
         const worker = session.newBranch();
         const bus = session.hooks;
         void worker.act([]);
         return { worker, bus };
       }`,
      "session.newBranch()",
    ],
    [
      "a session held in a this-property",
      `import { Session } from "@hooklens/runtime";
       export class Agent {
         session: Session;
         constructor() {
           this.session = new Session();
           this.session.newBranch().act([]);
           this.session.hooks.on("tool.pre", () => undefined);
         }
       }`,
      "this.session.newBranch()",
    ],
    [
      "a runtime that cannot be resolved (import specifier only)",
      `import { Session } from "@hooklens/runtime";
       const session = new Session();
       session.newBranch().act([]);
       export const bus = session.hooks;`,
      "session.newBranch()",
      { runtime: "missing" },
    ],
  ];

  it.each(cases)("flags %s", (_label, source, text, options) => {
    expect(flagged(source, options)).toEqual([text]);
  });

  it("reports only the first early inclusion of a session", () => {
    expect(
      flagged(`
        import { Session } from "@hooklens/runtime";
        const session = new Session();
        session.newBranch({ name: "a" }).act([]);
        session.newBranch({ name: "b" }).act([]);
        export const bus = session.hooks;
      `),
    ).toEqual(['session.newBranch({ name: "a" })']);
  });

  it("skips an early branch included again after the bus exists, and reports the next one", () => {
    expect(
      flagged(`
        import { Session } from "@hooklens/runtime";
        const session = new Session();
        const a = session.newBranch();
        const b = session.newBranch({ name: "b" });
        const bus = session.hooks;
        session.includeBranches(a);
        export { a, b, bus };
        void a.act([]);
        void b.act([]);
      `),
    ).toEqual(['session.newBranch({ name: "b" })']);
  });

  it("tells two sessions apart", () => {
    expect(
      flagged(`
        import { Session } from "@hooklens/runtime";
        const early = new Session();
        const late = new Session();
        late.hooks;
        early.newBranch().act([]);
        late.newBranch().act([]);
        early.hooks;
      `),
    ).toEqual(["early.newBranch()"]);
  });
});

describe("HL005 branch-before-bus: what it leaves alone", () => {
  const clean: [string, string, Options?][] = [
    [
      "hooks read before the branch is included",
      `import { HookPoint, Session } from "@hooklens/runtime";
       const session = new Session();
       const bus = session.hooks;
       const branch = session.newBranch();
       bus.on(HookPoint.TOOL_PRE, () => undefined);
       session.hooks.on(HookPoint.TOOL_POST, () => undefined);
       export { branch };`,
    ],
    [
      "a bus that is never read in that body",
      `import { Session } from "@hooklens/runtime";
       const session = new Session();
       export const branch = session.newBranch();
       session.includeBranches(session.newBranch());`,
    ],
    [
      "a bus read on a different session",
      `import { Session } from "@hooklens/runtime";
       const a = new Session();
       const b = new Session();
       a.newBranch();
       export const bus = b.hooks;`,
    ],
    [
      "a class of one's own that is called Session",
      `class Session {
         hooks = {};
         newBranch() { return {}; }
       }
       const session = new Session();
       session.newBranch();
       export const bus = session.hooks;`,
    ],
    [
      "a plain new Session(), whose implicit default branch is not an inclusion the user wrote",
      `import { Session } from "@hooklens/runtime";
       const session = new Session();
       session.observer.bindDbPersistence(session.id);
       export const bus = session.hooks;`,
    ],
    [
      "a session received as a parameter (its bus may exist already)",
      `import type { Session } from "@hooklens/runtime";
       export function wire(session: Session) {
         session.newBranch();
         return session.hooks;
       }`,
    ],
    [
      "a session handed to other code before the inclusion",
      `import { Session } from "@hooklens/runtime";
       declare function prepare(session: Session): void;
       const session = new Session();
       prepare(session);
       session.newBranch();
       export const bus = session.hooks;`,
    ],
    [
      "a hoisted function that reads the bus and may run first",
      `import { Session } from "@hooklens/runtime";
       const session = new Session();
       setUp();
       session.newBranch();
       export const bus = session.hooks;
       function setUp() { session.hooks.on("tool.pre", () => undefined); }`,
    ],
    [
      "a bus read only inside a callback",
      `import { Session } from "@hooklens/runtime";
       const session = new Session();
       session.newBranch();
       export const later = () => session.hooks;`,
    ],
    [
      "all branches included again after the bus exists",
      `import { Session } from "@hooklens/runtime";
       const session = new Session();
       session.newBranch();
       export const bus = session.hooks;
       session.includeBranches(session.branches);`,
    ],
    [
      "an early branch routed with routeMessagePersistence()",
      `import { Session, routeMessagePersistence } from "@hooklens/runtime";
       const session = new Session();
       const branch = session.newBranch();
       routeMessagePersistence(session, branch, () => undefined);
       export const bus = session.hooks;`,
    ],
    [
      "a variable that is assigned another session",
      `import { Session } from "@hooklens/runtime";
       let session = new Session();
       session.newBranch();
       session = new Session();
       export const bus = session.hooks;`,
    ],
    [
      "another method called on this before the inclusion",
      `import { Session } from "@hooklens/runtime";
       export class Agent {
         session!: Session;
         start() {
           this.session = new Session();
           this.prepare();
           this.session.newBranch();
           return this.session.hooks;
         }
         prepare() { return this.session.hooks; }
       }`,
    ],
    [
      "a subclass of the runtime Session, whose members may differ",
      `import { Session } from "@hooklens/runtime";
       class Tracked extends Session {}
       const session = new Tracked();
       session.newBranch();
       export const bus = session.hooks;`,
    ],
  ];

  it.each(clean)("does not flag %s", (_label, source, options) => {
    expect(flagged(source, options)).toEqual([]);
  });
});

describe("HL005 hover", () => {
  it("explains the finding under the cursor and links the rule page", () => {
    const source = `import { Session } from "@hooklens/runtime";\nconst s = new Session();\ns.newBranch().act([]);\nexport const bus = s.hooks;\n`;
    const findings = analyzeFixture(source);
    const lineStarts = [0, ...[...source.matchAll(/\n/g)].map((m) => m.index + 1)];
    const offset = source.indexOf("newBranch");
    const hover = hoverAt(findings, offset, lineStarts, (code) => `https://example.test/${code}.md`);
    const value = hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
    expect(value).toContain("**HookLens HL005** `branch-before-bus`");
    expect(value).toContain("first created on line 4");
    expect(value).toContain("(https://example.test/HL005.md)");
    expect(hover?.range).toEqual({ start: { line: 2, character: 0 }, end: { line: 2, character: 13 } });
  });
});

describe("HL005 branch-before-bus: only branches that run tools, followed through array destructuring", () => {
  const SESSION = `import { act, AgentSpec, BranchTools, createAgent, Session } from "@hooklens/runtime";\nconst s = new Session();\n`;

  /** [why, source, texts flagged]. */
  const table: [string, string, string[]][] = [
    ["a branch that never runs a tool loses nothing by missing the tool hooks", `${SESSION}const b = s.newBranch();\nconsole.log(b.id);\nexport const bus = s.hooks;`, []],
    ["a branch created and dropped runs no tool", `${SESSION}s.newBranch();\nexport const bus = s.hooks;`, []],
    [
      "branches taken from array destructuring and included again once the bus exists",
      `${SESSION}const [a, b] = [s.newBranch(), s.newBranch({ name: "b" })];\nconst bus = s.hooks;\ns.includeBranches([a, b]);\nvoid a.act([]);\nvoid b.act([]);\nexport { bus };`,
      [],
    ],
    [
      "array destructuring: only the destructured branch that acts is reported",
      `${SESSION}const [a, b] = [s.newBranch(), s.newBranch({ name: "b" })];\nexport const bus = s.hooks;\nconsole.log(a.id);\nvoid b.act([]);`,
      ['s.newBranch({ name: "b" })'],
    ],
    ["a branch passed to act()", `${SESSION}const b = s.newBranch();\nexport const bus = s.hooks;\nawait act(b, { function: "x", arguments: {} });`, ["s.newBranch()"]],
    ["a branch given to the middleware's BranchTools", `${SESSION}const b = s.newBranch();\nexport const bus = s.hooks;\nexport const tools = new BranchTools(b);`, ["s.newBranch()"]],
    ["a branch given to createAgent as { branch }", `${SESSION}const branch = s.newBranch();\nexport const bus = s.hooks;\nawait createAgent(new AgentSpec(), { branch });`, ["s.newBranch()"]],
    ["a branch that gets tools registered", `${SESSION}const b = s.newBranch();\nexport const bus = s.hooks;\nb.registerTools([]);`, ["s.newBranch()"]],
  ];

  it.each(table)("%s", (_why, source, texts) => {
    expect(flagged(source)).toEqual(texts);
  });
});
