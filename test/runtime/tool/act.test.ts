import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  act,
  AgentSpec,
  attachHooks,
  Branch,
  ConfigurationError,
  GateDenied,
  HookPoint,
  HookSignal,
  InvalidValueError,
  Message,
  PermissionError,
  Session,
  Tool,
  ToolCallAction,
  type ToolArgs,
} from "@hooklens/runtime";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A session whose bus exists before the branch is included, so the branch gets it (no backfill otherwise). */
function sessionBranch(): { session: Session; branch: Branch } {
  const session = new Session();
  void session.hooks;
  return { session, branch: session.newBranch() };
}

/** Records every tool bus point's payload. */
function recordPoints(session: Session): Array<[string, Record<string, unknown>]> {
  const seen: Array<[string, Record<string, unknown>]> = [];
  for (const point of [HookPoint.TOOL_PRE, HookPoint.TOOL_POST, HookPoint.TOOL_ERROR]) {
    session.hooks.on(point, (payload) => void seen.push([point, { ...payload }]));
  }
  return seen;
}

function failing(message: string): Tool {
  return new Tool({
    funcCallable: () => {
      throw new Error(message);
    },
    name: "explode",
  });
}

describe("act(): the effective action order", () => {
  it("runs authorize → TOOL_PRE handlers → security → user pre → security → callable → post → TOOL_POST → messages, in that exact order", async () => {
    const { session, branch } = sessionBranch();
    const calls: string[] = [];
    session.gate((payload) => {
      if (payload instanceof ToolCallAction) calls.push(`authorize ${payload.function}`);
      return true;
    });
    session.hooks.on(HookPoint.TOOL_PRE, () => void calls.push("TOOL_PRE handler 1"));
    session.hooks.on(HookPoint.TOOL_PRE, () => void calls.push("TOOL_PRE handler 2"));
    session.hooks.on(HookPoint.TOOL_POST, () => void calls.push("TOOL_POST"));
    session.hooks.on(HookPoint.TOOL_ERROR, () => void calls.push("TOOL_ERROR"));
    const spec = new AgentSpec()
      .pre("lookup", () => void calls.push("user pre"))
      .post("lookup", (_t, _a, _args, result) => (calls.push("post"), { ...result, posted: true }));
    spec.hookHandlers.set("security_pre:*", [() => void calls.push("security")]);
    const tool = new Tool({ funcCallable: (args: ToolArgs) => (calls.push("callable"), { found: args["key"] }), name: "lookup" });
    branch.registerTools(attachHooks(tool, spec, "lookup"));
    branch.onMessageAdded.push((message) => void calls.push(`message ${message.role}`));

    const response = await act(branch, { function: "lookup", arguments: { key: "k" } });

    expect(calls).toEqual([
      "authorize lookup",
      "TOOL_PRE handler 1",
      "TOOL_PRE handler 2",
      "security",
      "user pre",
      "security",
      "callable",
      "post",
      "TOOL_POST",
      "message action_request",
      "message action_response",
    ]);
    expect(response).toEqual({ function: "lookup", arguments: { key: "k" }, output: { found: "k", posted: true } });
  });

  it("on a failing callable runs authorize → TOOL_PRE → pre → callable → TOOL_ERROR, with no post-hook and no TOOL_POST", async () => {
    const { session, branch } = sessionBranch();
    const calls: string[] = [];
    session.gate((payload) => (payload instanceof ToolCallAction && calls.push("authorize"), true));
    session.hooks.on(HookPoint.TOOL_PRE, () => void calls.push("TOOL_PRE"));
    session.hooks.on(HookPoint.TOOL_POST, () => void calls.push("TOOL_POST"));
    session.hooks.on(HookPoint.TOOL_ERROR, () => void calls.push("TOOL_ERROR"));
    const spec = new AgentSpec().pre("explode", () => void calls.push("pre")).post("*", () => void calls.push("post"));
    const tool = new Tool({
      funcCallable: () => {
        calls.push("callable");
        throw new Error("boom");
      },
      name: "explode",
    });
    branch.registerTools(attachHooks(tool, spec, "explode"));
    await expect(act(branch, { function: "explode", arguments: {} })).rejects.toThrow("boom");
    expect(calls).toEqual(["authorize", "TOOL_PRE", "pre", "callable", "TOOL_ERROR"]);
  });

  it("refuses a request that is not an envelope before anything runs", async () => {
    const { session, branch } = sessionBranch();
    const calls: string[] = [];
    session.gate(() => (calls.push("gate"), true));
    recordPoints(session);
    for (const bad of [null, "lookup()", { function: "lookup" }, { arguments: {} }, { function: 3, arguments: {} }]) {
      await expect(act(branch, bad)).rejects.toThrow(InvalidValueError);
    }
    expect(calls).toEqual([]);
  });
});

describe("act(): governance denial", () => {
  it("returns a denial result, records GateDenied, fires no bus point and adds the request/response messages", async () => {
    const { session, branch } = sessionBranch();
    const points = recordPoints(session);
    let ran = false;
    branch.registerTools(new Tool({ funcCallable: () => (ran = true), name: "rm" }));
    session.gate((payload) => !(payload instanceof ToolCallAction && payload.function === "rm"));

    const response = await act(branch, { function: "rm", arguments: { path: "/" } });

    const denial = { error: "denied by governance gate", function: "rm" };
    expect(response).toEqual({ function: "rm", arguments: { path: "/" }, output: denial });
    expect(ran).toBe(false);
    expect(points).toEqual([]);
    const [denied] = session.observer.byType(GateDenied);
    expect(denied!.data).toEqual(new ToolCallAction({ function: "rm", arguments: { path: "/" }, branchId: branch.id, callId: (denied!.data as ToolCallAction).callId! }));
    expect((denied!.data as ToolCallAction).callId).toMatch(/^[0-9a-f-]{36}$/);
    expect(branch.messages.map((message) => [message.role, message.content])).toEqual([
      ["action_request", { function: "rm", arguments: { path: "/" }, actionResponseId: branch.messages[1]!.id }],
      ["action_response", { function: "rm", arguments: { path: "/" }, output: denial, actionRequestId: branch.messages[0]!.id }],
    ]);
  });

  it("authorizes with {} as the arguments when they are not an object", async () => {
    const { session, branch } = sessionBranch();
    const seen: unknown[] = [];
    session.gate((payload) => (payload instanceof ToolCallAction && seen.push(payload.arguments), false));
    await act(branch, { function: "x", arguments: "not an object" });
    expect(seen).toEqual([{}]);
  });
});

describe("act(): TOOL_PRE is a blocking guard", () => {
  it("a guard's error propagates even with suppressErrors: the tool does not run, no TOOL_ERROR, no message, no HookSignal", async () => {
    const { session, branch } = sessionBranch();
    const points = recordPoints(session);
    let ran = false;
    branch.registerTools(new Tool({ funcCallable: () => (ran = true), name: "deploy" }));
    session.hooks.on(HookPoint.TOOL_PRE, () => {
      throw new PermissionError("no deploys on Friday");
    });
    await expect(act(branch, { function: "deploy", arguments: {} }, { suppressErrors: true })).rejects.toThrow("no deploys on Friday");
    expect(ran).toBe(false);
    expect(points.map(([point]) => point)).toEqual(["tool.pre"]);
    expect(branch.messages).toEqual([]);
    expect(session.observer.byType(HookSignal).filter((signal) => signal.point === "tool.pre")).toEqual([]);
  });
});

describe("act(): TOOL_POST and TOOL_ERROR payloads", () => {
  it("TOOL_POST carries the same fresh UUID v4 callId as TOOL_PRE, the result summary and a duration in seconds", async () => {
    const { session, branch } = sessionBranch();
    const points = recordPoints(session);
    branch.registerTools(new Tool({ funcCallable: () => ({ ok: 1 }), name: "ping" }));
    await act(branch, { function: "ping", arguments: { n: 1 } });
    await act(branch, { function: "ping", arguments: { n: 2 } });
    const [[, pre1], [, post1], [, pre2]] = points;
    expect(pre1).toEqual({ toolName: "ping", callId: expect.stringMatching(UUID_V4), argsSummary: '{"n":1}' });
    expect(post1).toEqual({ callId: pre1!["callId"], toolName: "ping", resultSummary: '{"ok":1}', duration: expect.any(Number) });
    expect(post1!["duration"]).toBeGreaterThanOrEqual(0);
    expect(pre2!["callId"]).not.toBe(pre1!["callId"]);
  });

  it("records TOOL_POST as a HookSignal on the observer", async () => {
    const { session, branch } = sessionBranch();
    branch.registerTools(new Tool({ funcCallable: () => "pong", name: "ping" }));
    await act(branch, { function: "ping", arguments: {} });
    const points = session.observer.byType(HookSignal).map((signal) => [signal.point, signal.payload["resultSummary"]]);
    expect(points).toEqual([
      ["tool.pre", undefined],
      ["tool.post", "pong"],
    ]);
  });

  it("a tool body that throws fires TOOL_ERROR with the error and the call's duration (the ADR's rule)", async () => {
    const { session, branch } = sessionBranch();
    const points = recordPoints(session);
    branch.registerTools(failing("boom"));
    await expect(act(branch, { function: "explode", arguments: {} })).rejects.toThrow("boom");
    const [[, pre], [point, payload]] = points;
    expect(point).toBe("tool.error");
    expect(payload).toEqual({ callId: pre!["callId"], toolName: "explode", error: expect.any(Error), duration: expect.any(Number) });
    expect((payload!["error"] as Error).message).toBe("boom");
  });

  it("a throwing preprocessor or postprocessor fires TOOL_ERROR, not TOOL_POST", async () => {
    const { session, branch } = sessionBranch();
    const points = recordPoints(session);
    const thrower = (message: string) => () => {
      throw new Error(message);
    };
    branch.registerTools([
      new Tool({ funcCallable: () => 1, name: "pre", preprocessor: thrower("in pre") }),
      new Tool({ funcCallable: () => 1, name: "post", postprocessor: thrower("in post") }),
    ]);
    await expect(act(branch, { function: "pre", arguments: {} })).rejects.toThrow("in pre");
    await expect(act(branch, { function: "post", arguments: {} })).rejects.toThrow("in post");
    expect(points.map(([point, payload]) => [point, (payload["error"] as Error | undefined)?.message])).toEqual([
      ["tool.pre", undefined],
      ["tool.error", "in pre"],
      ["tool.pre", undefined],
      ["tool.error", "in post"],
    ]);
  });

  it("arguments that fail the schema and unregistered functions fire TOOL_ERROR with a null duration", async () => {
    const { session, branch } = sessionBranch();
    const points = recordPoints(session);
    branch.registerTools(new Tool({ funcCallable: () => 1, name: "typed", requestOptions: z.object({ n: z.number() }) }));
    await expect(act(branch, { function: "typed", arguments: { n: "one" } })).rejects.toThrow(/Tool 'typed'.*n: /);
    await expect(act(branch, { function: "missing", arguments: {} })).rejects.toThrow("Function missing is not registered.");
    expect(points.filter(([point]) => point === "tool.error").map(([, payload]) => payload["duration"])).toEqual([null, null]);
  });
});

describe("act(): results and messages", () => {
  it("adds the action request (to the tool) and response (with the output) messages on success", async () => {
    const { branch } = sessionBranch();
    const tool = new Tool({ funcCallable: (args: ToolArgs) => (args["a"] as number) * 2, name: "double" });
    branch.registerTools(tool);
    const response = await act(branch, { function: "double", arguments: { a: 21 } });
    expect(response).toEqual({ function: "double", arguments: { a: 21 }, output: 42 });
    const [request, answer] = branch.messages;
    expect([request!.role, request!.sender, request!.recipient]).toEqual(["action_request", branch.id, tool.id]);
    expect([answer!.role, answer!.sender, answer!.recipient]).toEqual(["action_response", tool.id, branch.id]);
    expect(answer!.content).toMatchObject({ function: "double", output: 42, actionRequestId: request!.id });
  });

  it("does not add an action request message that is already on the branch", async () => {
    const { branch } = sessionBranch();
    branch.registerTools(new Tool({ funcCallable: () => "ok", name: "f" }));
    const request = await branch.addMessageAsync(new Message({ role: "action_request", content: { function: "f", arguments: {} } }));
    await act(branch, request);
    expect(branch.messages.map((message) => message.role)).toEqual(["action_request", "action_response"]);
    expect(branch.messages[0]).toBe(request);
  });

  it("suppressErrors turns a failure into an error response and error messages", async () => {
    const { branch } = sessionBranch();
    branch.registerTools(failing("boom"));
    const response = await act(branch, { function: "explode", arguments: { x: 1 } }, { suppressErrors: true });
    expect(response).toEqual({
      function: "explode",
      arguments: { x: 1 },
      output: { error: "boom", message: "Error invoking action 'explode': boom" },
    });
    expect(branch.messages.map((message) => (message.content as ToolArgs)["output"])).toEqual([
      undefined,
      { error: "boom", function: "explode", arguments: { x: 1 } },
    ]);
  });

  it("emits the completed call to the observer and logs it on the branch", async () => {
    const { branch } = sessionBranch();
    branch.registerTools(new Tool({ funcCallable: () => "ok", name: "f" }));
    await act(branch, { function: "f", arguments: {} });
    expect(branch.logs).toHaveLength(1);
    expect((branch.logs[0] as { function: string }).function).toBe("f");
  });

  it("works on a standalone branch: no bus, authorize allows", async () => {
    const branch = new Branch();
    branch.registerTools(new Tool({ funcCallable: () => "ok", name: "f" }));
    expect(branch.hooks).toBeNull();
    expect((await act(branch, { function: "f", arguments: {} })).output).toBe("ok");
  });

  it("a branch included before the session's bus existed fires no tool points (no backfill)", async () => {
    const session = new Session();
    const early = session.defaultBranch!;
    const points = recordPoints(session);
    early.registerTools(new Tool({ funcCallable: () => "ok", name: "f" }));
    await act(early, { function: "f", arguments: {} });
    expect(points).toEqual([]);
  });
});

describe("Branch.act: strategies and defaults", () => {
  it("always returns a list and suppresses errors by default", async () => {
    const { branch } = sessionBranch();
    branch.registerTools([failing("boom"), new Tool({ funcCallable: () => "ok", name: "f" })]);
    expect(await branch.act({ function: "f", arguments: {} })).toEqual([{ function: "f", arguments: {}, output: "ok" }]);
    const [failed] = await branch.act({ function: "explode", arguments: {} });
    expect(failed!.output).toEqual({ error: "boom", message: "Error invoking action 'explode': boom" });
  });

  it("concurrent (the default) starts every call before any finishes", async () => {
    const { branch } = sessionBranch();
    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    branch.registerTools(
      new Tool({
        funcCallable: async (args: ToolArgs) => {
          started.push(String(args["id"]));
          if (started.length === 2) release();
          await gate;
          return args["id"];
        },
        name: "wait",
      }),
    );
    const results = await branch.act([
      { function: "wait", arguments: { id: "a" } },
      { function: "wait", arguments: { id: "b" } },
    ]);
    expect(results.map((result) => result.output)).toEqual(["a", "b"]);
    expect(started).toEqual(["a", "b"]);
  });

  it("sequential finishes each call before starting the next", async () => {
    const { branch } = sessionBranch();
    const events: string[] = [];
    branch.registerTools(
      new Tool({
        funcCallable: async (args: ToolArgs) => {
          events.push(`start ${String(args["id"])}`);
          await new Promise((resolve) => setImmediate(resolve));
          events.push(`end ${String(args["id"])}`);
        },
        name: "step",
      }),
    );
    await branch.act(
      [
        { function: "step", arguments: { id: 1 } },
        { function: "step", arguments: { id: 2 } },
      ],
      { strategy: "sequential" },
    );
    expect(events).toEqual(["start 1", "end 1", "start 2", "end 2"]);
  });

  it("rejects an unknown strategy with a ConfigurationError", async () => {
    const { branch } = sessionBranch();
    await expect(branch.act([], { strategy: "parallel" as never })).rejects.toThrow(
      new ConfigurationError("Invalid strategy. Choose 'concurrent' or 'sequential'."),
    );
  });

  it("rejects a duplicate tool registration on the branch unless update is set", () => {
    const branch = new Branch();
    branch.registerTools(new Tool({ funcCallable: () => 1, name: "f" }));
    expect(() => branch.registerTools(new Tool({ funcCallable: () => 2, name: "f" }))).toThrow("Tool f is already registered.");
    expect(() => branch.registerTools(new Tool({ funcCallable: () => 2, name: "f" }), { update: true })).not.toThrow();
  });
});
