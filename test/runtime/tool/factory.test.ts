import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testTempDir } from "../../helpers/tempDir.js";
import {
  ActionManager,
  AgentSpec,
  applyPermissions,
  attachHooks,
  equipAgent,
  guardDestructive,
  PermissionPolicy,
  registerCodingTools,
  Tool,
  toolHooks,
  type PreHookChain,
  type ToolArgs,
} from "@hooklens/runtime";

const workspace = () => testTempDir("hooklens-factory-");

describe("factory hook lookup", () => {
  it("orders hooks wildcard first, then the exact name, then the <name>_tool alias", () => {
    const [wild, exact, alias] = [() => 1, () => 2, () => 3];
    const spec = new AgentSpec().pre("reader_tool", alias).pre("reader", exact).pre("*", wild);
    expect(toolHooks(spec, "pre", "reader")).toEqual([wild, exact, alias]);
  });

  it("attaches security pre-hooks first and again after user pre-hooks", async () => {
    const calls: string[] = [];
    const spec = new AgentSpec().pre("bash", () => void calls.push("user"));
    spec.hookHandlers.set("security_pre:*", [() => void calls.push("security")]);
    const tool = attachHooks(new Tool({ funcCallable: () => null, name: "bash_tool" }), spec, "bash");
    await tool.preprocessor!({}, {});
    expect(calls).toEqual(["security", "user", "security"]);
  });

  it("passes the canonical tool name to hooks of a tool registered under an alias", async () => {
    const names: string[] = [];
    const spec = new AgentSpec().pre("*", (toolName) => void names.push(toolName));
    const tool = attachHooks(new Tool({ funcCallable: () => null, name: "search_tool" }), spec, "search");
    await tool.preprocessor!({}, {});
    expect(names).toEqual(["search"]);
  });

  it("sets no preprocessor or postprocessor when no hooks are declared", () => {
    const tool = attachHooks(new Tool({ funcCallable: () => null, name: "x" }), new AgentSpec(), "x");
    expect(tool.preprocessor).toBeNull();
    expect(tool.postprocessor).toBeNull();
  });

  it("stores error handlers and never calls them, even when the tool fails", async () => {
    const errorCalls: unknown[] = [];
    const spec = new AgentSpec().onError("x", (...params: never[]) => void errorCalls.push(params));
    const manager = new ActionManager();
    manager.register(
      attachHooks(
        new Tool({
          funcCallable: () => {
            throw new Error("fail");
          },
          name: "x",
        }),
        spec,
        "x",
      ),
    );
    const call = await manager.invoke({ function: "x", arguments: {} });
    expect(call.status).toBe("failed");
    expect(spec.handlersFor("error:x")).toHaveLength(1);
    expect(errorCalls).toEqual([]);
  });
});

describe("applyPermissions", () => {
  it("puts the policy's pre-hook first among security_pre:* hooks", () => {
    const existing = () => undefined;
    const spec = new AgentSpec({ permissions: PermissionPolicy.readOnly() });
    spec.hookHandlers.set("security_pre:*", [existing]);
    applyPermissions(spec);
    const hooks = spec.handlersFor("security_pre:*");
    expect(hooks).toHaveLength(2);
    expect(hooks[0]!.name).toBe("permissionCheck");
    expect(hooks[1]).toBe(existing);
  });

  it("ignores permissions that are not a PermissionPolicy", () => {
    const spec = new AgentSpec({ permissions: { mode: "deny_all" } as never });
    applyPermissions(spec);
    expect(spec.hookHandlers.size).toBe(0);
  });
});

describe("registerCodingTools", () => {
  it("builds the coding bash chain as [permission] + [guardDestructive, user hook] + [permission]", () => {
    const user = (_t: string, _a: string, _args: ToolArgs) => undefined;
    const spec = AgentSpec.coding({ cwd: workspace(), permissions: PermissionPolicy.safe() }).pre("bash", user);
    applyPermissions(spec);
    const manager = new ActionManager();
    registerCodingTools(manager, spec);
    const hooks = (manager.registry.get("bash")!.preprocessor as PreHookChain).hooks;
    expect(hooks.map((hook) => hook.name)).toEqual(["permissionCheck", "guardDestructive", "user", "permissionCheck"]);
    expect(hooks[1]).toBe(guardDestructive);
  });

  it("skips keys without a colon and phases it does not know", () => {
    const spec = new AgentSpec({ cwd: workspace(), notify: false });
    spec.hookHandlers.set("nonsense", [() => ({ hijacked: true })]);
    spec.hookHandlers.set("around:reader", [() => ({ hijacked: true })]);
    const manager = new ActionManager();
    registerCodingTools(manager, spec);
    expect(manager.registry.get("reader")!.preprocessor).toBeNull();
  });

  it("never runs the spec's error hooks, even when a coding tool's call fails", async () => {
    const errorCalls: unknown[] = [];
    const spec = new AgentSpec({ cwd: workspace(), notify: false })
      .onError("reader", (...params: never[]) => void errorCalls.push(params))
      .onError("*", (...params: never[]) => void errorCalls.push(params))
      .pre("editor", () => {
        throw new Error("blocked");
      });
    const manager = new ActionManager();
    registerCodingTools(manager, spec);
    const failed = await manager.invoke({ function: "reader", arguments: { path: "no-such-file.txt" } });
    expect(failed.response).toMatchObject({ success: false });
    const thrown = await manager.invoke({ function: "editor", arguments: { action: "write", filePath: "a.txt", content: "x" } });
    expect(thrown.status).toBe("failed");
    expect(errorCalls).toEqual([]);
  });
});

describe("equipAgent (the agent factory)", () => {
  it("registers standalone tools as <name>_tool and denies through the permission policy", async () => {
    const root = workspace();
    writeFileSync(path.join(root, "a.txt"), "hello");
    const spec = new AgentSpec({ tools: ["reader", "editor"], cwd: root, permissions: PermissionPolicy.readOnly() });
    const manager = await equipAgent(new ActionManager(), spec);
    expect([...manager.registry.keys()]).toEqual(["reader_tool", "editor_tool"]);
    const read = await manager.invoke({ function: "reader_tool", arguments: { path: "a.txt" } });
    expect(read.response).toMatchObject({ success: true, content: "hello" });
    const edit = await manager.invoke({ function: "editor_tool", arguments: { action: "write", filePath: "b.txt", content: "x" } });
    expect(edit.status).toBe("failed");
    expect((edit.error as Error).message).toBe("Permission denied for editor.write: matched deny rule '*'");
  });

  it("registers MCP tools after attachment, so they get no hooks — not even a deny-all policy", async () => {
    const calls: unknown[] = [];
    const server = {
      listTools: async () => [{ name: "remote_delete", description: "Deletes things remotely" }],
      callTool: async (name: string, args: ToolArgs) => (calls.push([name, args]), { deleted: true }),
    };
    const spec = new AgentSpec({
      tools: ["reader"],
      cwd: workspace(),
      permissions: new PermissionPolicy({ mode: "deny_all" }),
      mcpServers: { ops: server },
    });
    spec.pre("*", () => {
      throw new Error("user guard");
    });
    const manager = await equipAgent(new ActionManager(), spec);
    const remote = manager.registry.get("remote_delete")!;
    expect(remote.preprocessor).toBeNull();
    expect(remote.postprocessor).toBeNull();
    const call = await manager.invoke({ function: "remote_delete", arguments: { id: 1 } });
    expect(call.response).toEqual({ deleted: true });
    expect(calls).toEqual([["remote_delete", { id: 1 }]]);
    expect((await manager.invoke({ function: "reader_tool", arguments: { path: "x" } })).status).toBe("failed");
  });

  it("refuses an unknown tool name", async () => {
    await expect(equipAgent(new ActionManager(), new AgentSpec({ tools: ["teleport"] }))).rejects.toThrow(/Unknown agent tool "teleport"/);
  });
});
