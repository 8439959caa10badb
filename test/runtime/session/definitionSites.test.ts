// Signals about a tool or a hook say where the program defined it (the Signals view reveals that
// line): the site is read from the stack once, when the tool is made or the hook registered, and
// only the program's own frame counts — never the runtime's, in the sources or in the bundles.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  GateDenied,
  GuardrailBlock,
  GuardrailHook,
  Hook,
  HookPoint,
  HookShortCircuit,
  IModel,
  ModelCallFinished,
  ScriptedEndpoint,
  Session,
  ShortCircuit,
  Tool,
  ToolCallAction,
  ToolCallBlocked,
  ToolCallStarted,
  createRunContext,
  runBefore,
  type ToolInvocation,
} from "@hooklens/runtime";
import { completion, invocationOf, specOf, useCapturedLogs } from "../middleware/support.js";

useCapturedLogs();

const FILE = fileURLToPath(import.meta.url);
const SOURCE = readFileSync(FILE, "utf8").split("\n");

/** The 1-based line of this file holding `marker` (in a comment at the end of the line meant). */
function lineOf(marker: string): number {
  const index = SOURCE.findIndex((line) => line.endsWith(`// ${marker}`));
  if (index < 0) throw new Error(`no line marked ${marker}`);
  return index + 1;
}

/** This file's line marked `marker`, as a signal's `location` should name it (any column on it). */
const at = (marker: string) => ({ file: FILE, line: lineOf(marker), column: expect.any(Number) as number });

function branchOf(session: Session) {
  void session.hooks; // the bus exists before the branch is included
  return session.newBranch();
}

afterEach(() => vi.restoreAllMocks());

describe("where a tool or hook was defined, on its signals", () => {
  it("ToolCallStarted names the line that made the Tool, or that registered a plain function as one", async () => {
    const session = new Session();
    const branch = branchOf(session);
    const refund = new Tool({ name: "refund", funcCallable: () => "ok" }); // tool-made
    branch.registerTools(refund);
    branch.registerTools(function lookup() { return 1; }); // function-registered
    await branch.act({ function: "refund", arguments: {} });
    await branch.act({ function: "lookup", arguments: {} });
    await session.observer.flush();
    const started = session.observer.byType(ToolCallStarted);
    expect(started.map((signal) => [signal.toolName, signal.location])).toEqual([
      ["refund", at("tool-made")],
      ["lookup", at("function-registered")],
    ]);
    const column = SOURCE[lineOf("tool-made") - 1]!.indexOf("new Tool") + 1;
    expect(started[0]!.location!.column).toBe(column);
  });

  it("ToolCallBlocked names the line that registered the blocking TOOL_PRE handler", async () => {
    const session = new Session();
    const branch = branchOf(session);
    branch.registerTools(new Tool({ name: "deleteFile", funcCallable: () => "gone" }));
    session.hooks.on(HookPoint.TOOL_PRE, () => undefined);
    session.hooks.on(HookPoint.TOOL_PRE, function noDeletes() { throw new Error("no"); }); // handler-registered
    await expect(branch.act({ function: "deleteFile", arguments: {} })).rejects.toThrow("no");
    await session.observer.flush();
    expect(session.observer.byType(ToolCallBlocked)[0]!.location).toEqual(at("handler-registered"));
  });

  it("GateDenied names the line that set the gate (in its metadata: the class keeps its as-built fields)", async () => {
    const session = new Session();
    const branch = branchOf(session);
    branch.registerTools(new Tool({ name: "wire", funcCallable: () => "sent" }));
    session.observer.gate((subject) => !(subject instanceof ToolCallAction)); // gate-set
    await branch.act({ function: "wire", arguments: {} });
    await session.observer.flush();
    expect(session.observer.byType(GateDenied)[0]!.metadata["location"]).toEqual(at("gate-set"));
  });

  it("middleware denials name the user's Hook subclass, or the line that made a built-in hook", async () => {
    const session = new Session();
    class Cached extends Hook { // hook-class
      override beforeTool(): ShortCircuit {
        return new ShortCircuit("from cache");
      }
    }
    const inv: ToolInvocation = invocationOf(specOf("search"), {}, createRunContext({ signals: session }));
    await runBefore([new Cached()], "beforeTool", inv);
    const guard = new GuardrailHook(() => "looks like a password"); // guard-made
    await expect(runBefore([guard], "beforeTool", invocationOf(specOf("search"), { q: "pw" }, createRunContext({ signals: session })))).rejects.toThrow();
    expect(session.observer.byType(HookShortCircuit)[0]!.location).toEqual(at("hook-class"));
    expect(session.observer.byType(GuardrailBlock)[0]!.location).toEqual(at("guard-made"));
  });

  it("a model call's record of its service hook phases names the lines that registered their handlers", async () => {
    const session = new Session();
    const branch = branchOf(session);
    const model = new IModel({ endpoint: new ScriptedEndpoint({ model: "m-1", script: [completion("hi")] }), signals: branch });
    model.hookRegistry.preInvoke(() => undefined); // pre-invoke
    model.hookRegistry.postInvoke(() => undefined); // post-invoke
    await model.invoke({ messages: [{ role: "user", content: "hello" }] });
    await session.observer.flush();
    const [finished] = session.observer.byType(ModelCallFinished);
    expect(finished!.hookRuns!.map((run) => [run.hookType, run.location])).toEqual([
      ["pre_invocation", at("pre-invoke")],
      ["post_invocation", at("post-invoke")],
    ]);
  });

  it("reads no stack per call: the site is read when the tool is made, never when it runs", async () => {
    const session = new Session();
    const branch = branchOf(session);
    branch.registerTools(new Tool({ name: "ping", funcCallable: () => "pong" }));
    session.hooks.on(HookPoint.TOOL_PRE, () => undefined);
    const captures = vi.spyOn(Error, "captureStackTrace");
    for (let i = 0; i < 5; i++) await branch.act({ function: "ping", arguments: {} });
    await session.observer.flush();
    expect(captures).not.toHaveBeenCalled();
    new Tool({ name: "pong", funcCallable: () => "ping" });
    expect(captures).toHaveBeenCalledTimes(1);
  });

  it("a signal about a tool made inside the runtime alone names no line of the runtime", async () => {
    const session = new Session();
    const branch = branchOf(session);
    branch.registerTools(new Tool({ name: "echo", funcCallable: (args: Record<string, unknown>) => args }));
    await branch.act({ function: "echo", arguments: { a: 1 } });
    await session.observer.flush();
    for (const signal of [...session.observer.byType(ToolCallStarted)]) {
      expect(signal.location?.file).toBe(FILE);
      expect(signal.location?.file).not.toMatch(/runtime[\\/](src|dist)|test-dist/);
    }
  });
});
