import { describe, expect, it } from "vitest";
import { ActionManager, FunctionCalling, InvalidValueError, Tool } from "@hooklens/runtime";

function add(args: Record<string, unknown>) {
  return (args["a"] as number) + (args["b"] as number);
}

describe("ActionManager", () => {
  it("registers a named function as a Tool under its name", () => {
    const manager = new ActionManager().register(add);
    expect(manager.registry.get("add")).toBeInstanceOf(Tool);
    expect(manager.has("add")).toBe(true);
    expect(manager.has(add)).toBe(true);
  });

  it("rejects a duplicate name unless update is set", () => {
    const manager = new ActionManager().register(add);
    expect(() => manager.register(new Tool({ funcCallable: () => 0, name: "add" }))).toThrow(
      new InvalidValueError("Tool add is already registered."),
    );
    const replacement = new Tool({ funcCallable: () => 0, name: "add" });
    manager.register(replacement, { update: true });
    expect(manager.registry.get("add")).toBe(replacement);
  });

  it("rejects what is neither a Tool nor a function with an InvalidValueError", () => {
    expect(() => new ActionManager().register({ name: "x" } as never)).toThrow(InvalidValueError);
  });

  it("matches a request to a validated FunctionCalling", () => {
    const call = new ActionManager([add]).match({ function: "add", arguments: { a: 1, b: 2 } });
    expect(call).toBeInstanceOf(FunctionCalling);
    expect(call.function).toBe("add");
    expect(call.arguments).toEqual({ a: 1, b: 2 });
  });

  it("refuses an unregistered function by name", () => {
    expect(() => new ActionManager().match({ function: "nope", arguments: {} })).toThrow(
      new InvalidValueError("Function nope is not registered."),
    );
  });

  it("refuses a request that is not an envelope with an InvalidValueError", () => {
    expect(() => new ActionManager([add]).match("add(1, 2)")).toThrow(InvalidValueError);
    expect(() => new ActionManager([add]).match({ function: "add" })).toThrow(/^ActionManager\.match\(request\): unsupported action request/);

  });

  it("invoke builds, runs and returns the call with its response", async () => {
    const call = await new ActionManager([add]).invoke({ function: "add", arguments: { a: 2, b: 3 } });
    expect(call.status).toBe("completed");
    expect(call.response).toBe(5);
  });

  it("lists every tool's schema for the model", () => {
    expect(new ActionManager([add]).schemaList.map((schema) => schema.function.name)).toEqual(["add"]);
  });
});
