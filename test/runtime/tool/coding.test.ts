import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testTempDir } from "../../helpers/tempDir.js";
import {
  ActionManager,
  AgentSpec,
  CodingToolkit,
  createAgent,
  InvalidValueError,
  NotSupportedError,
  splitCommand,
  type PreHookChain,
  type PostHookChain,
  type Tool,
  type ToolArgs,
} from "@hooklens/runtime";

function workspace(): string {
  const root = testTempDir("hooklens-coding-");
  mkdirSync(path.join(root, "src"));
  writeFileSync(path.join(root, "src", "a.ts"), "export const a = 1;\n// TODO: b\n");
  writeFileSync(path.join(root, "notes.md"), "line 1\nline 2\nline 3\n");
  return root;
}

function toolsOf(toolkit: CodingToolkit): Map<string, Tool> {
  return new Map(toolkit.bind().map((tool) => [tool.function, tool]));
}

async function call(tools: Map<string, Tool>, name: string, args: ToolArgs): Promise<ToolArgs> {
  const manager = new ActionManager([...tools.values()]);
  const invocation = await manager.invoke({ function: name, arguments: args });
  if (invocation.status === "failed") throw invocation.error;
  return invocation.response as ToolArgs;
}

describe("CodingToolkit hook order", () => {
  it("runs security hooks wildcard then exact, but user pre-hooks exact then wildcard (the reverse of the factory)", () => {
    const names = (hook: { name: string }) => hook.name;
    const toolkit = new CodingToolkit({ workspaceRoot: workspace(), notify: false });
    const secWild = () => undefined;
    const secExact = () => undefined;
    const preWild = () => undefined;
    const preExact = () => undefined;
    toolkit.securityPre("bash", secExact).securityPre("*", secWild).pre("*", preWild).pre("bash", preExact);
    const chain = toolsOf(toolkit).get("bash")!.preprocessor as PreHookChain;
    expect(chain.hooks.map(names)).toEqual(["secWild", "secExact", "preExact", "preWild", "secWild", "secExact"]);
  });

  it("runs post-hooks exact then wildcard", () => {
    const toolkit = new CodingToolkit({ workspaceRoot: workspace(), notify: false });
    const postWild = () => undefined;
    const postExact = () => undefined;
    toolkit.post("*", postWild).post("reader", postExact);
    expect((toolsOf(toolkit).get("reader")!.postprocessor as PostHookChain).hooks).toEqual([postExact, postWild]);
  });

  it("has no <name>_tool alias", () => {
    const toolkit = new CodingToolkit({ workspaceRoot: workspace(), notify: false });
    toolkit.pre("bash_tool", () => ({ hijacked: true }));
    expect(toolsOf(toolkit).get("bash")!.preprocessor).toBeNull();
  });

  it("stores onError hooks and never runs them", async () => {
    const calls: unknown[] = [];
    const toolkit = new CodingToolkit({ workspaceRoot: workspace(), notify: false });
    toolkit.onError("reader", (...params: never[]) => void calls.push(params));
    toolkit.pre("reader", () => {
      throw new Error("refused");
    });
    await expect(call(toolsOf(toolkit), "reader", { path: "notes.md" })).rejects.toThrow("refused");
    expect(toolkit.errorHooks("reader")).toHaveLength(1);
    expect(calls).toEqual([]);
  });

  it("bind adds the notify post-hook on * — so every tool has a postprocessor — and adds it again on each bind", () => {
    const toolkit = new CodingToolkit({ workspaceRoot: workspace() });
    const first = toolsOf(toolkit);
    expect([...first.values()].every((tool) => tool.postprocessor !== null)).toBe(true);
    expect((first.get("reader")!.postprocessor as PostHookChain).hooks.map((hook) => hook.name)).toEqual(["notifyPost"]);
    const second = toolsOf(toolkit);
    expect((second.get("reader")!.postprocessor as PostHookChain).hooks.map((hook) => hook.name)).toEqual(["notifyPost", "notifyPost"]);
  });

  it("the notify hook puts a reminder in result.system after three failures in a row", async () => {
    const tools = toolsOf(new CodingToolkit({ workspaceRoot: workspace() }));
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await call(tools, "reader", { path: "missing.txt" }));
    expect(results.map((result) => result["system"])).toEqual([
      undefined,
      undefined,
      expect.stringContaining("3 tool calls in a row failed"),
    ]);
    expect((await call(tools, "reader", { path: "notes.md" }))["system"]).toBeUndefined();
  });

  it("refuses unknown tool names, listing the valid ones", () => {
    expect(() => new CodingToolkit({ tools: ["reader", "teleport"] })).toThrow(
      new InvalidValueError("unknown coding tool(s): [teleport]. Valid: [reader, editor, bash, search]"),
    );
  });

  it("toTool refuses: a toolkit needs a branch", () => {
    expect(() => new CodingToolkit().toTool()).toThrow(NotSupportedError);
  });

  it("createAgent with a coding spec registers the toolkit's tools on a new Branch", async () => {
    const branch = await createAgent(AgentSpec.coding({ cwd: workspace() }));
    expect([...branch.actionManager.registry.keys()]).toEqual(["reader", "editor", "bash", "search"]);
    const [denied] = await branch.act({ function: "bash", arguments: { command: "rm -rf src" } });
    expect((denied!.output as ToolArgs)["error"]).toMatch(/^Blocked destructive command: rm -rf src/);
  });
});

describe("coding tools stay inside the workspace", () => {
  it("reader reads a slice of lines and lists directories", async () => {
    const tools = toolsOf(new CodingToolkit({ workspaceRoot: workspace(), notify: false }));
    expect(await call(tools, "reader", { path: "notes.md", offset: 1, limit: 1 })).toEqual({
      success: true,
      path: "notes.md",
      content: "line 2",
      startLine: 1,
      totalLines: 4,
      truncated: true,
    });
    expect(await call(tools, "reader", { action: "list", path: "." })).toMatchObject({
      success: true,
      entries: [
        { name: "notes.md", type: "file" },
        { name: "src", type: "dir" },
      ],
    });
  });

  it("reader refuses paths outside the root, including through a symlink", async () => {
    const root = workspace();
    symlinkSync("/etc", path.join(root, "etc-link"));
    const tools = toolsOf(new CodingToolkit({ workspaceRoot: root, notify: false }));
    for (const target of ["../x", "/etc/hostname", "etc-link/hostname"]) {
      expect(await call(tools, "reader", { path: target })).toEqual({ success: false, error: `Path is outside the workspace: ${target}` });
    }
  });

  it("editor writes new files and replaces a unique piece of text", async () => {
    const root = workspace();
    const tools = toolsOf(new CodingToolkit({ workspaceRoot: root, notify: false }));
    expect(await call(tools, "editor", { action: "write", filePath: "out/b.ts", content: "let b = 2;\n" })).toEqual({
      success: true,
      filePath: "out/b.ts",
      bytes: 11,
      created: true,
    });
    expect(await call(tools, "editor", { action: "edit", filePath: "out/b.ts", oldString: "2", newString: "3" })).toMatchObject({
      success: true,
      replacements: 1,
    });
    expect(readFileSync(path.join(root, "out", "b.ts"), "utf8")).toBe("let b = 3;\n");
  });

  it("editor refuses an ambiguous edit unless replaceAll, and writes outside the root", async () => {
    const root = workspace();
    writeFileSync(path.join(root, "dup.txt"), "x x x");
    const tools = toolsOf(new CodingToolkit({ workspaceRoot: root, notify: false }));
    expect(await call(tools, "editor", { action: "edit", filePath: "dup.txt", oldString: "x", newString: "y" })).toMatchObject({
      success: false,
      error: expect.stringContaining("occurs 3 times"),
    });
    expect(
      await call(tools, "editor", { action: "edit", filePath: "dup.txt", oldString: "x", newString: "y", replaceAll: true }),
    ).toMatchObject({
      replacements: 3,
    });
    expect(await call(tools, "editor", { action: "write", filePath: "../evil.txt", content: "x" })).toMatchObject({ success: false });
  });

  it("bash runs argv without a shell, in the workspace", async () => {
    const root = workspace();
    const tools = toolsOf(new CodingToolkit({ workspaceRoot: root, notify: false }));
    const result = await call(tools, "bash", { command: `node -e "console.log(process.cwd(), process.argv[1])" 'a b'` });
    expect(result).toMatchObject({ success: true, returnCode: 0, stdout: `${root} a b\n`, timedOut: false });
    const literal = await call(tools, "bash", { command: `node -e 'console.log("$HOME")'` });
    expect(literal["stdout"]).toBe("$HOME\n");
  });

  it("bash refuses shell syntax instead of passing it to a shell", async () => {
    const tools = toolsOf(new CodingToolkit({ workspaceRoot: workspace(), notify: false }));
    for (const command of ["ls; rm -rf x", "cat a | sh", "echo $(id)", "ls > out", "ls *.ts", "echo `id`"]) {
      expect(await call(tools, "bash", { command })).toMatchObject({ success: false, error: expect.any(String) });
    }
  });

  it("bash refuses arguments that point outside the workspace", async () => {
    const tools = toolsOf(new CodingToolkit({ workspaceRoot: workspace(), notify: false }));
    for (const command of ["cat /etc/passwd", "cat ../x", "node --require=/tmp/x.js"]) {
      expect(await call(tools, "bash", { command })).toMatchObject({
        success: false,
        error: expect.stringContaining("outside the workspace"),
      });
    }
  });

  it("bash kills a command that outlives its timeout", async () => {
    const tools = toolsOf(new CodingToolkit({ workspaceRoot: workspace(), notify: false }));
    const result = await call(tools, "bash", { command: `node -e "setTimeout(() => {}, 60000)"`, timeoutMs: 200 });
    expect(result).toMatchObject({ success: false, returnCode: null, timedOut: true });
  });

  it("bash reports a program that does not exist", async () => {
    const tools = toolsOf(new CodingToolkit({ workspaceRoot: workspace(), notify: false }));
    expect(await call(tools, "bash", { command: "no-such-program-hooklens" })).toMatchObject({
      success: false,
      error: expect.stringContaining("Could not start no-such-program-hooklens"),
    });
  });

  it("search finds lines by pattern, filtered by glob", async () => {
    const tools = toolsOf(new CodingToolkit({ workspaceRoot: workspace(), notify: false }));
    expect(await call(tools, "search", { pattern: "TODO", glob: "*.ts" })).toEqual({
      success: true,
      matches: [{ file: "src/a.ts", line: 2, text: "// TODO: b" }],
      filesSearched: 1,
      truncated: false,
    });
    expect(await call(tools, "search", { pattern: "(", literal: false })).toMatchObject({
      success: false,
      error: expect.stringContaining("Invalid pattern"),
    });
  });
});

describe("splitCommand", () => {
  it("splits words with quotes and escapes the way a shell would for plain commands", () => {
    expect(splitCommand(`git commit -m "fix: a \\"b\\"" 'c d' e\\ f`)).toEqual(["git", "commit", "-m", 'fix: a "b"', "c d", "e f"]);
  });

  it("refuses unterminated quotes, operators and expansions", () => {
    for (const command of [`echo "a`, "echo 'a", "a && b", "a || b", "a & b", "~/bin/x", "# comment", `echo "$X"`, ""]) {
      expect(() => splitCommand(command)).toThrow();
    }
  });
});
