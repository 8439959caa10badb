import { describe, expect, it } from "vitest";
import { AgentSpec, guardDestructive, HooksMixin } from "@hooklens/runtime";

const noop = () => undefined;

describe("HooksMixin (AgentSpec hook declarations)", () => {
  it("stores pre, post and onError handlers under pre:, post: and error: keys", () => {
    const spec = new HooksMixin();
    const pre = () => undefined;
    const post = () => undefined;
    const onError = () => undefined;
    spec.pre("bash", pre).post("reader", post).onError("editor", onError);
    expect([...spec.hookHandlers.entries()]).toEqual([
      ["pre:bash", [pre]],
      ["post:reader", [post]],
      ["error:editor", [onError]],
    ]);
  });

  it("returns the same object from every call so declarations chain, appending in order", () => {
    const spec = new AgentSpec();
    const a = () => undefined;
    const b = () => undefined;
    expect(spec.pre("bash", a)).toBe(spec);
    spec.pre("bash", b).pre("bash", a);
    expect(spec.handlersFor("pre:bash")).toEqual([a, b, a]);
  });

  it("validates nothing: any tool name, wildcard included, is accepted", () => {
    const spec = new AgentSpec().pre("*", noop).post("no such tool", noop);
    expect([...spec.hookHandlers.keys()]).toEqual(["pre:*", "post:no such tool"]);
  });
});

describe("AgentSpec.coding", () => {
  it("uses the coding toolkit", () => {
    expect(AgentSpec.coding({ cwd: "/tmp" }).tools).toEqual(["coding"]);
  });

  it("secure (the default) declares guardDestructive on bash and one path guard on reader and editor, as user pre-hooks", () => {
    const spec = AgentSpec.coding({ cwd: "/tmp" });
    expect(spec.handlersFor("pre:bash")).toEqual([guardDestructive]);
    const [readerGuard] = spec.handlersFor("pre:reader");
    expect(readerGuard).toBeTypeOf("function");
    expect(spec.handlersFor("pre:editor")).toEqual([readerGuard]);
    expect([...spec.hookHandlers.keys()].some((key) => key.startsWith("security_pre:"))).toBe(false);
  });

  it("declares no guards when secure is false", () => {
    expect(AgentSpec.coding({ cwd: "/tmp", secure: false }).hookHandlers.size).toBe(0);
  });
});
