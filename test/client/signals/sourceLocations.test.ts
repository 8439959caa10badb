import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { HookPoint, IModel, ScriptedEndpoint, Session, Tool, ToolCallAction } from "@hooklens/runtime";
import { SignalTreeModel, type TreeNode } from "../../../client/src/signals/model/treeModel.js";
import { streamRun } from "./agentRun.js";

const FILE = fileURLToPath(import.meta.url);
const SOURCE = readFileSync(FILE, "utf8").split("\n");
const lineOf = (marker: string): number => SOURCE.findIndex((line) => line.endsWith(`// ${marker}`)) + 1;

describe("where a signal's tool or hook was defined, as the Signals view reads it", () => {
  it("offers Reveal Source on a call (its tool's line) and on a denial (its hook's line), not on a signal that names no place", async () => {
    const { store } = await streamRun(async () => {
      const session = new Session();
      const bus = session.hooks;
      const branch = session.newBranch();
      branch.registerTools([
        new Tool({ name: "refund", funcCallable: () => "ok" }), // refund-tool
        new Tool({ name: "wire", funcCallable: () => "sent" }), // wire-tool
      ]);
      bus.on(HookPoint.TOOL_PRE, function guard({ toolName }) { if (toolName === "refund") throw new Error("no refunds"); }); // guard
      session.observer.gate((subject) => !(subject instanceof ToolCallAction && subject.function === "wire")); // gate
      await bus.emit(HookPoint.SESSION_START, { sessionId: session.id });
      await branch.act({ function: "refund", arguments: {} }).catch(() => undefined);
      await branch.act({ function: "wire", arguments: {} });
      await branch.drainSignals();
    });
    const model = new SignalTreeModel(store);
    const [sessionNode] = model.children(model.roots()[0]!);
    const rows = model.children(sessionNode!);
    const calls = model.children(rows.find((row) => row.type === "branch")!).filter((node) => node.type === "call");
    const place = (marker: string) => ({ file: FILE, line: lineOf(marker), column: expect.any(Number) as number });
    const sourceOf = (node: TreeNode) => (node.type === "call" ? node.group.source : node.type === "signal" ? node.entry.facts.source : null);

    expect(calls.map((node) => [model.view(node).contextValue, sourceOf(node)])).toEqual([
      ["hooklens.call.source", place("refund-tool")],
      ["hooklens.call.source", place("wire-tool")],
    ]);
    const members = (index: number) => model.children(calls[index]!).filter((node) => node.type === "signal");
    const blocked = members(0).find((node) => node.type === "signal" && node.entry.facts.kindKey === "ToolCallBlocked")!;
    expect([model.view(blocked).contextValue, sourceOf(blocked)]).toEqual(["hooklens.signal.source", place("guard")]);
    const gateDenied = members(1).find((node) => node.type === "signal" && node.entry.facts.kindKey === "GateDenied")!;
    expect([model.view(gateDenied).contextValue, sourceOf(gateDenied)]).toEqual(["hooklens.signal.source", place("gate")]);
    const start = rows.find((row) => row.type === "signal" && row.entry.facts.kindKey === "session.start")!;
    expect([model.view(start).contextValue, sourceOf(start)]).toEqual(["hooklens.signal", null]);
  });

  it("offers Reveal Source on a model call's service hook phase: the line that registered its handler", async () => {
    const { store } = await streamRun(async () => {
      const session = new Session();
      const branch = session.newBranch();
      const imodel = new IModel({ endpoint: new ScriptedEndpoint({ model: "m-1", script: [{ response: { choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }] } }] }), signals: branch });
      imodel.hookRegistry.preInvoke(() => undefined); // pre-invoke
      await imodel.invoke({ messages: [{ role: "user", content: "hello" }] });
      await branch.drainSignals();
    });
    const model = new SignalTreeModel(store);
    const find = (nodes: TreeNode[]): TreeNode | undefined => {
      for (const node of nodes) {
        if (node.type === "phase") return node;
        const inner = node.type === "signal" ? undefined : find(model.children(node));
        if (inner) return inner;
      }
      return undefined;
    };
    const phase = find(model.roots())!;
    expect(phase.type === "phase" && phase.phase.source).toEqual({ file: FILE, line: lineOf("pre-invoke"), column: expect.any(Number) });
    expect(model.view(phase).contextValue).toBe("hooklens.phase.source");
  });
});
