import { describe, expect, it } from "vitest";
import { z } from "zod";
import { act, HookPoint, Session, Tool, ToolArgumentsError, ToolCallAction, type ToolArgs, type Branch } from "@hooklens/runtime";

function sessionBranch(): { session: Session; branch: Branch; points: Array<[string, Record<string, unknown>]> } {
  const session = new Session();
  const points: Array<[string, Record<string, unknown>]> = [];
  for (const point of [HookPoint.TOOL_PRE, HookPoint.TOOL_POST, HookPoint.TOOL_ERROR]) {
    session.hooks.on(point, (payload) => void points.push([point, { ...payload }]));
  }
  return { session, branch: session.newBranch(), points };
}

const POLLUTING_JSON = '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "name": "x"}';

describe("hostile input to act()", () => {
  it("arguments that fail the schema give a clear error naming the tool and fields, as TOOL_ERROR", async () => {
    const { branch, points } = sessionBranch();
    branch.registerTools(
      new Tool({ funcCallable: () => 1, name: "resize", requestOptions: z.object({ width: z.number().int().positive() }) }),
    );
    const error = await act(branch, { function: "resize", arguments: { width: -3.5 } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolArgumentsError);
    expect((error as ToolArgumentsError).fields).toEqual(["width"]);
    expect((error as Error).message).toMatch(/^Tool 'resize': arguments do not match its schema: width: /);
    expect(points.map(([point]) => point)).toEqual(["tool.pre", "tool.error"]);
  });

  it("__proto__ and constructor keys in arguments reach no prototype, with or without a schema", async () => {
    const { branch } = sessionBranch();
    const seen: ToolArgs[] = [];
    branch.registerTools([
      new Tool({ funcCallable: (args: ToolArgs) => (seen.push(args), "free"), name: "free" }),
      new Tool({
        funcCallable: (args: ToolArgs) => (seen.push(args), "typed"),
        name: "typed",
        requestOptions: z.object({ name: z.string() }),
      }),
    ]);
    const args = JSON.parse(POLLUTING_JSON) as ToolArgs;
    await act(branch, { function: "free", arguments: args });
    await act(branch, { function: "typed", arguments: args });
    expect(({} as ToolArgs)["polluted"]).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(Object.getPrototypeOf(seen[0])).toBe(Object.prototype);
    expect(Object.keys(seen[0]!)).toEqual(["__proto__", "constructor", "name"]);
    expect(seen[1]).toEqual({ name: "x" });
  });

  it("pre-hooks that read `action` ignore an inherited one and a polluted-looking own key stays data", async () => {
    const { branch } = sessionBranch();
    const actions: string[] = [];
    branch.registerTools(
      new Tool({
        funcCallable: () => "ok",
        name: "t",
        preprocessor: async (args) => {
          const { chainPreHooks } = await import("@hooklens/runtime");
          return chainPreHooks("t", [(_n, action) => void actions.push(action)])!(args);
        },
      }),
    );
    await act(branch, { function: "t", arguments: Object.create({ action: "inherited" }) as ToolArgs }).catch(() => undefined);
    await act(branch, { function: "t", arguments: JSON.parse('{"__proto__": {"action": "sneaky"}}') as ToolArgs });
    expect(actions).toEqual([""]);
    expect(({} as ToolArgs)["action"]).toBeUndefined();
  });

  it("huge arguments give a summary of at most 200 characters", async () => {
    const { branch, points } = sessionBranch();
    branch.registerTools(new Tool({ funcCallable: (args: ToolArgs) => (args["blob"] as string).length, name: "size" }));
    const blob = "x".repeat(5_000_000);
    const deep: ToolArgs = {};
    let cursor = deep;
    for (let i = 0; i < 10_000; i++) cursor = cursor["next"] = {};
    await act(branch, { function: "size", arguments: { blob, deep } });
    const summary = points[0]![1]["argsSummary"] as string;
    expect(summary).toHaveLength(200);
    expect(summary.startsWith('{"blob":"xxxx')).toBe(true);
    expect(points[1]![1]["resultSummary"]).toBe("5000000");
  });

  it("non-object results skip the post chain and get a readable summary", async () => {
    const { branch, points } = sessionBranch();
    const results: unknown[] = ["plain text", 42, null, undefined, [1, "a"], 10n, Symbol("s"), new Map([["k", 1]])];
    let index = 0;
    const postCalls: unknown[] = [];
    branch.registerTools(
      new Tool({
        funcCallable: () => results[index++],
        name: "any",
        postprocessor: async (result) => {
          const { chainPostHooks } = await import("@hooklens/runtime");
          return chainPostHooks("any", [(...params: unknown[]) => void postCalls.push(params)])!(result);
        },
      }),
    );
    for (let i = 0; i < results.length; i++) await act(branch, { function: "any", arguments: {} });
    expect(postCalls).toEqual([]);
    expect(points.filter(([point]) => point === "tool.post").map(([, payload]) => payload["resultSummary"])).toEqual([
      "plain text",
      "42",
      "null",
      "undefined",
      '[1,"a"]',
      "10n",
      "Symbol(s)",
      'Map{"k":1}',
    ]);
  });

  it("throwing getters in arguments and results give a safe summary, never a crash", async () => {
    const { branch, points } = sessionBranch();
    const trap = () =>
      Object.defineProperty({ ok: 1 }, "locked", {
        enumerable: true,
        get() {
          throw new Error("no peeking");
        },
      }) as ToolArgs;
    branch.registerTools(new Tool({ funcCallable: () => trap(), name: "trap" }));
    const response = await act(branch, { function: "trap", arguments: trap() });
    expect(points.map(([, payload]) => payload["argsSummary"] ?? payload["resultSummary"])).toEqual([
      '{"ok":1,"locked":[getter threw: no peeking]}',
      '{"ok":1,"locked":[getter threw: no peeking]}',
    ]);
    expect(response.function).toBe("trap");
  });

  it("a callable that reads a throwing getter fails with that error, reported as TOOL_ERROR", async () => {
    const { branch, points } = sessionBranch();
    branch.registerTools(new Tool({ funcCallable: (args: ToolArgs) => args["secret"], name: "reads" }));
    const args = Object.defineProperty({}, "secret", {
      enumerable: true,
      get() {
        throw new Error("no peeking");
      },
    }) as ToolArgs;
    await expect(act(branch, { function: "reads", arguments: args })).rejects.toThrow("no peeking");
    expect(points.map(([point]) => point)).toEqual(["tool.pre", "tool.error"]);
  });

  it("a throwing getter read by the schema is a clear argument error, reported as TOOL_ERROR", async () => {
    const { branch, points } = sessionBranch();
    branch.registerTools(new Tool({ funcCallable: () => 1, name: "typed", requestOptions: z.object({ secret: z.string() }) }));
    const args = Object.defineProperty({}, "secret", {
      enumerable: true,
      get() {
        throw new Error("no peeking");
      },
    }) as ToolArgs;
    await expect(act(branch, { function: "typed", arguments: args })).rejects.toThrow(
      "Tool 'typed': arguments could not be read: no peeking",
    );
    expect(points.map(([point]) => point)).toEqual(["tool.pre", "tool.error"]);
  });

  it("a request whose fields throw when read is a clear envelope error", async () => {
    const { branch } = sessionBranch();
    const request = {
      get function(): string {
        throw new Error("trap");
      },
      arguments: {},
    };
    await expect(act(branch, request)).rejects.toThrow(/Reading it failed: trap/);
  });

  it("a request whose getters change their answer cannot swap the call after the gate allowed it", async () => {
    const { session, branch } = sessionBranch();
    const ran: string[] = [];
    branch.registerTools([
      new Tool({ funcCallable: () => void ran.push("read"), name: "read" }),
      new Tool({ funcCallable: () => void ran.push("rm"), name: "rm" }),
    ]);
    session.gate((payload) => !(payload instanceof ToolCallAction && payload.function === "rm"));
    let reads = 0;
    const shifty = {
      get function(): string {
        return reads++ === 0 ? "read" : "rm";
      },
      arguments: {},
    };
    await act(branch, shifty);
    expect(ran).toEqual(["read"]);
  });

  it("cyclic arguments and results are summarised with [Circular]", async () => {
    const { branch, points } = sessionBranch();
    const cyclic: ToolArgs = { name: "loop" };
    cyclic["self"] = cyclic;
    branch.registerTools(new Tool({ funcCallable: () => cyclic, name: "cycle" }));
    await act(branch, { function: "cycle", arguments: cyclic });
    expect(points[0]![1]["argsSummary"]).toBe('{"name":"loop","self":[Circular]}');
  });
});
