import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FunctionCalling, InvalidValueError, Tool, ToolArgumentsError } from "@hooklens/runtime";

const Request = z.object({ path: z.string(), limit: z.number().default(10), tag: z.string().optional() });

function echo(args: Record<string, unknown>) {
  return { ...args };
}

describe("FunctionCalling validation when the call is built", () => {
  it("rejects arguments that fail the request model, naming the tool and each offending field", () => {
    const tool = new Tool({ funcCallable: echo, requestOptions: Request });
    let error: unknown;
    try {
      new FunctionCalling(tool, { path: 7, tag: 3 });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ToolArgumentsError);
    expect(error).toBeInstanceOf(InvalidValueError);
    const failure = error as ToolArgumentsError;
    expect(failure.tool).toBe("echo");
    expect(failure.fields).toEqual(["path", "tag"]);
    expect(failure.message).toMatch(/Tool 'echo'.*path: .*tag: /);
  });

  it("keeps only the fields the caller set: schema defaults are not filled in and unknown keys are dropped", () => {
    const tool = new Tool({ funcCallable: echo, requestOptions: Request });
    expect(new FunctionCalling(tool, { path: "a", extra: 1 }).arguments).toEqual({ path: "a" });
  });

  it("non-strict: accepts extra names as long as the minimum fields are present", () => {
    const tool = new Tool({ funcCallable: echo, requestOptions: Request });
    expect(() => new FunctionCalling(tool, { path: "a", limit: 3 })).not.toThrow();
  });

  it("strict: the argument names must equal the required fields, so a set default-valued field is refused", () => {
    const tool = new Tool({ funcCallable: echo, requestOptions: Request, strictFuncCall: true });
    expect(() => new FunctionCalling(tool, { path: "a" })).not.toThrow();
    expect(() => new FunctionCalling(tool, { path: "a", limit: 3 })).toThrow(
      /arguments must match the function schema of tool 'echo': unexpected limit/,
    );
  });

  it("strict without a request model: names missing and unexpected fields against an explicit schema", () => {
    const tool = new Tool({
      funcCallable: echo,
      toolSchema: { type: "function", function: { name: "echo", parameters: { type: "object", properties: {}, required: ["a", "b"] } } },
      strictFuncCall: true,
    });
    expect(() => new FunctionCalling(tool, { a: 1, c: 2 })).toThrow(/missing b; unexpected c/);
  });

  it("refuses arguments that are not an object", () => {
    const tool = new Tool({ funcCallable: echo });
    expect(() => new FunctionCalling(tool, "path=a")).toThrow(/Tool 'echo': arguments must be an object, got a string/);
    expect(() => new FunctionCalling(tool, [1])).toThrow(/got an array/);
  });
});

describe("FunctionCalling.invoke", () => {
  it("runs preprocessor → callable → postprocessor, each return replacing the value", async () => {
    const order: string[] = [];
    const tool = new Tool({
      funcCallable: (args: Record<string, unknown>) => (order.push(`callable ${JSON.stringify(args)}`), { value: args["n"] }),
      name: "f",
      preprocessor: (args, kwargs) => (order.push(`pre ${JSON.stringify(args)} ${JSON.stringify(kwargs)}`), { n: 2 }),
      preprocessorKwargs: { k: 1 },
      postprocessor: async (result, kwargs) => (order.push(`post ${JSON.stringify(result)} ${JSON.stringify(kwargs)}`), "done"),
      postprocessorKwargs: { j: 2 },
    });
    const call = new FunctionCalling(tool, { n: 1 });
    await call.invoke();
    expect(order).toEqual(['pre {"n":1} {"k":1}', 'callable {"n":2}', 'post {"value":2} {"j":2}']);
    expect(call.arguments).toEqual({ n: 2 });
    expect(call.response).toBe("done");
    expect(call.status).toBe("completed");
    expect(call.execution.duration).toBeGreaterThanOrEqual(0);
  });

  it("does not validate again after the preprocessor replaced the arguments", async () => {
    const seen: unknown[] = [];
    const tool = new Tool({
      funcCallable: (args: Record<string, unknown>) => seen.push(args),
      name: "f",
      requestOptions: Request,
      preprocessor: () => ({ path: 42, notInSchema: true }),
    });
    const call = new FunctionCalling(tool, { path: "ok" });
    await call.invoke();
    expect(call.status).toBe("completed");
    expect(seen).toEqual([{ path: 42, notInSchema: true }]);
  });

  it("records a throwing callable as failed with the error instead of throwing", async () => {
    const boom = new Error("boom");
    const call = new FunctionCalling(
      new Tool({
        funcCallable: () => {
          throw boom;
        },
        name: "f",
      }),
      {},
    );
    await expect(call.invoke()).resolves.toBeUndefined();
    expect(call.status).toBe("failed");
    expect(call.error).toBe(boom);
    expect(call.response).toBeUndefined();
  });

  it("records a throwing preprocessor or postprocessor as failed", async () => {
    const pre = new FunctionCalling(
      new Tool({
        funcCallable: () => 1,
        name: "f",
        preprocessor: () => {
          throw new Error("pre");
        },
      }),
      {},
    );
    const post = new FunctionCalling(
      new Tool({
        funcCallable: () => 1,
        name: "f",
        postprocessor: () => {
          throw new Error("post");
        },
      }),
      {},
    );
    await pre.invoke();
    await post.invoke();
    expect([pre.status, (pre.error as Error).message]).toEqual(["failed", "pre"]);
    expect([post.status, (post.error as Error).message]).toEqual(["failed", "post"]);
  });

  it("fails clearly when a preprocessor returns something other than an argument object", async () => {
    const call = new FunctionCalling(new Tool({ funcCallable: () => 1, name: "f", preprocessor: () => undefined }), {});
    await call.invoke();
    expect(call.status).toBe("failed");
    expect((call.error as Error).message).toMatch(/preprocessor returned undefined, not an argument object/);
  });

  it("has a stable UUID v4 id and serialises its function, arguments and execution", async () => {
    const call = new FunctionCalling(new Tool({ funcCallable: () => "ok", name: "f" }), { a: 1 });
    await call.invoke();
    expect(call.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(call.id).toBe(call.id);
    expect(call.toDict()).toMatchObject({
      id: call.id,
      function: "f",
      arguments: { a: 1 },
      execution: { status: "completed", response: "ok" },
    });
    expect(String(call)).toBe('f({"a":1})');
  });

  it("passes the callable a copy, so its mutations do not change the recorded arguments", async () => {
    const call = new FunctionCalling(
      new Tool({
        funcCallable: (args: Record<string, unknown>) => {
          args["x"] = 2;
        },
        name: "f",
      }),
      { x: 1 },
    );
    await call.invoke();
    expect(call.arguments).toEqual({ x: 1 });
  });
});
