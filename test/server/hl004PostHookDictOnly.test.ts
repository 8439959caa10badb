import { ArrowFunction } from "ts-morph";
import { afterEach, describe, expect, it, vi } from "vitest";
import { analyzeFixture, disposeFixture } from "../helpers/analyzeFixture.js";

afterEach(disposeFixture);

describe("HL004 post-hook-dict-only", () => {
  it("flags a post hook that reads its args parameter, which is always empty", () => {
    const findings = analyzeFixture(`
      import { AgentSpec } from "@hooklens/runtime";
      new AgentSpec().post("editor", (_tool, _action, args, result) => {
        console.log(args["file_path"]);
        return result;
      });
    `);
    expect(findings).toEqual([expect.objectContaining({ code: "HL004", text: "args" })]);
    expect(findings[0]!.message).toBe('Post hook\'s "args" is always an empty object: post hooks get (toolName, "", {}, result)');
    expect(findings[0]!.explanation).toContain("pre hook");
  });

  it("flags a post hook whose return value is never an object, so the runtime ignores it", () => {
    const findings = analyzeFixture(`
      import { CodingToolkit } from "@hooklens/runtime";
      declare const toolkit: CodingToolkit;
      toolkit.post("bash", async (_tool, _action, _args, result) => JSON.stringify(result));
    `);
    expect(findings).toEqual([expect.objectContaining({ code: "HL004", text: "JSON.stringify(result)" })]);
    expect(findings[0]!.message).toBe("Post hook's Promise<string> return is ignored: only a plain object replaces the result");
    expect(findings[0]!.explanation).toContain("returns Promise<string>, which the runtime ignores");
  });

  it("accepts post hooks that return an object or nothing and ignore args", () => {
    const findings = analyzeFixture(`
      import { AgentSpec } from "@hooklens/runtime";
      new AgentSpec()
        .post("reader", (_tool, _action, _args, result) => ({ ...result, checked: true }))
        .post("reader", () => undefined);
    `);
    expect(findings).toEqual([]);
  });

  it("asks the checker for a post hook's return type only when its body is not an object literal", () => {
    const asked: string[] = [];
    const getReturnType = ArrowFunction.prototype.getReturnType;
    const spy = vi.spyOn(ArrowFunction.prototype, "getReturnType").mockImplementation(function (this: ArrowFunction) {
      asked.push(this.getText());
      return getReturnType.call(this);
    });
    try {
      const findings = analyzeFixture(`
        import { AgentSpec } from "@hooklens/runtime";
        new AgentSpec()
          .post("a", (_tool, _action, _args, result) => ({ ...(result as object), checked: true }))
          .post("b", async (_tool, _action, _args, result) => (({ result })))
          .post("c", (_tool, _action, _args, result) => { return { result }; });
      `);
      expect(findings).toEqual([]);
      expect(asked).toEqual(["(_tool, _action, _args, result) => { return { result }; }"]);
    } finally {
      spy.mockRestore();
    }
  });

  it("reports an object-literal arrow that declares a return type the runtime ignores", () => {
    const findings = analyzeFixture(`
      import { AgentSpec } from "@hooklens/runtime";
      // @ts-expect-error: the body does not match the declared type
      new AgentSpec().post("a", (): string => ({ text: "x" }));
    `);
    expect(findings.map((f) => [f.code, f.message])).toEqual([["HL004", "Post hook's string return is ignored: only a plain object replaces the result"]]);
  });

  const SPEC = `import { ActionManager, AgentSpec, CodingToolkit, attachHooks, Tool } from "@hooklens/runtime";\nconst spec = new AgentSpec();\n`;
  const POST = `spec.post("search", (_t, _a, _args, result) => ({ ...result, seen: true }));\n`;
  /** The HL004 findings on the post hook's tool name, as [text, message]. */
  const onToolName = (source: string, extra?: Record<string, string>) =>
    analyzeFixture(source, { extra: extra ?? {} })
      .filter((f) => f.code === "HL004" && /^["']/.test(f.text))
      .map((f) => [f.text, f.message]);

  /** [why, source, [text, message] of each finding on the post hook's tool name, other files]. */
  const table: [string, string, string[][], Record<string, string>?][] = [
    [
      "a tool whose function returns a string never reaches the post hook",
      `${SPEC}${POST}const text = () => "plain text";\nexport const m = new ActionManager([attachHooks(new Tool({ funcCallable: text, name: "search" }), spec, "search")]);`,
      [['"search"', 'Post hook on "search" never runs for the tool of line 5: it returns a string']],
    ],
    [
      "an async tool resolving to an array, held in a const, attached under the exact name",
      `${SPEC}${POST}const tool = new Tool({ funcCallable: async () => ["a", "b"], name: "search" });\nattachHooks(tool, spec, "search");`,
      [['"search"', 'Post hook on "search" never runs for the tool of line 5: it returns an array']],
    ],
    [
      "a union with a non-object means the hook is skipped for some results",
      `${SPEC}${POST}function search(args: { q?: string }) { return args.q ? { hits: [args.q] } : "no query"; }\nattachHooks(new Tool({ funcCallable: search }), spec, "search");`,
      [['"search"', 'Post hook on "search" is skipped when the tool of line 5 returns a string']],
    ],
    [
      "a wildcard post hook reaches every attached tool, and a number result skips it",
      `${SPEC}spec.post("*", () => undefined);\nspec.post("search", () => undefined);\nattachHooks(new Tool({ funcCallable: (): number => 1, name: "count" }), spec, "count");`,
      [['"*"', 'Post hook on "*" never runs for the tool of line 5: it returns a number']],
    ],
    [
      "a post hook keyed by the <name>_tool alias, as the factory reads it",
      `${SPEC}spec.post("search_tool", () => undefined);\nattachHooks(new Tool({ funcCallable: () => 42, name: "search" }), spec, "search");`,
      [['"search_tool"', 'Post hook on "search_tool" never runs for the tool of line 4: it returns a number']],
    ],
    [
      "a chained spec (new AgentSpec().post(…)) stored in a const",
      `import { AgentSpec, attachHooks, Tool } from "@hooklens/runtime";\nconst spec = new AgentSpec().pre("*", () => undefined).post("search", () => undefined);\nattachHooks(new Tool({ funcCallable: () => "x", name: "search" }), spec, "search");`,
      [['"search"', 'Post hook on "search" never runs for the tool of line 3: it returns a string']],
    ],
    [
      "a tool function imported from another module, its return type read through the checker",
      `${SPEC}${POST}import { search } from "./tools";\nattachHooks(new Tool({ funcCallable: search }), spec, "search");`,
      [['"search"', 'Post hook on "search" never runs for the tool of line 5: it returns a string']],
      { "tools.ts": `export function search(): string { return "plain"; }\n` },
    ],
    ["a tool returning a plain object", `${SPEC}${POST}attachHooks(new Tool({ funcCallable: () => ({ hits: [] }), name: "search" }), spec, "search");`, []],
    ["a tool that only throws (its result never exists)", `${SPEC}${POST}attachHooks(new Tool({ funcCallable: (): never => { throw new Error("x"); }, name: "search" }), spec, "search");`, []],
    ["a tool whose result type is unknown", `${SPEC}${POST}declare const run: (args: object) => unknown;\nattachHooks(new Tool({ funcCallable: run, name: "search" }), spec, "search");`, []],
    ["hooks attached under another name", `${SPEC}${POST}attachHooks(new Tool({ funcCallable: () => "x", name: "read" }), spec, "read");`, []],
    ["another spec's tools", `${SPEC}${POST}const other = new AgentSpec();\nattachHooks(new Tool({ funcCallable: () => "x", name: "search" }), other, "search");`, []],
    ["a Tool without attachHooks: the spec's hooks never reach it, so its result says nothing about them", `${SPEC}${POST}export const t = new Tool({ funcCallable: () => "x", name: "search" });`, []],
    ["a CodingToolkit post hook (its own coding tools always return objects)", `${SPEC}new CodingToolkit().post("search", () => undefined);`, []],
  ];

  it.each(table)("%s", (_why, source, expected, extra) => {
    expect(onToolName(source, extra)).toEqual(expected);
  });
});

describe("HL004 post-hook-dict-only: a concise literal body read without the checker", () => {
  /** Concise bodies of a post hook: what the finding says must not depend on whether syntax or the checker read it. */
  const BODIES = ['"done"', "42", "-1", "true", "!r", "typeof r", "null", "undefined", "void 0", "1n", "[]", "[r]", "() => r", 'new Error("x")', "r === null", 'r ? "a" : "b"', 'r ? "a" : 1', 'r ? "a" : undefined', "r ? [] : 0", "`t${String(r)}`"];
  const findings = (holder: "inPlace" | "annotated", strict: boolean) =>
    BODIES.map((body) => {
      const spec = holder === "inPlace" ? "new AgentSpec()" : "spec";
      const source = `import { AgentSpec } from "@hooklens/runtime";\nconst spec: AgentSpec = new AgentSpec();\nvoid spec;\n${spec}.post("search", (_tool, _action, _args, r) => ${body});\n`;
      const tsconfig = JSON.stringify({ compilerOptions: { strict, target: "ES2022", module: "ESNext", moduleResolution: "Bundler", skipLibCheck: true } });
      const options = strict ? undefined : { extra: { "tsconfig.json": tsconfig } };
      const result = analyzeFixture(source, options).filter((f) => f.code === "HL004").map((f) => f.message);
      disposeFixture();
      return [body, result];
    });

  it.each([true, false])("says the same as the checker (strict %s)", (strict) => {
    expect(findings("inPlace", strict)).toEqual(findings("annotated", strict));
  });
});
