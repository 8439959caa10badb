import { describe, expect, it } from "vitest";
import { chainPostHooks, chainPreHooks, type ToolArgs } from "@hooklens/runtime";

describe("chainPreHooks", () => {
  it("runs security hooks first, then user hooks, then the security hooks again", async () => {
    const calls: string[] = [];
    const hook = (name: string) => () => void calls.push(name);
    const chain = chainPreHooks("bash", [hook("sec1"), hook("sec2")], [hook("user")])!;
    await chain({});
    expect(calls).toEqual(["sec1", "sec2", "user", "sec1", "sec2"]);
  });

  it("runs the security hooks only once when there are no user hooks", async () => {
    const calls: string[] = [];
    const chain = chainPreHooks("bash", [() => void calls.push("sec")])!;
    await chain({});
    expect(calls).toEqual(["sec"]);
  });

  it("is null when there are no hooks at all", () => {
    expect(chainPreHooks("bash", [], [])).toBeNull();
  });

  it('gives each handler (toolName, args.action or "", args)', async () => {
    const seen: unknown[] = [];
    const chain = chainPreHooks("editor", [(...params: unknown[]) => void seen.push(params)])!;
    await chain({ action: "write", filePath: "a.ts" });
    await chain({ filePath: "b.ts" });
    expect(seen).toEqual([
      ["editor", "write", { action: "write", filePath: "a.ts" }],
      ["editor", "", { filePath: "b.ts" }],
    ]);
  });

  it("replaces the arguments with a returned object and ignores other returns", async () => {
    const seen: ToolArgs[] = [];
    const chain = chainPreHooks(
      "t",
      [],
      [
        () => ({ step: 1 }),
        (_t, _a, args) => (seen.push(args), "ignored"),
        (_t, _a, args) => (seen.push(args), [1, 2]),
        (_t, _a, args) => (seen.push(args), undefined),
      ],
    )!;
    expect(await chain({ step: 0 })).toEqual({ step: 1 });
    expect(seen).toEqual([{ step: 1 }, { step: 1 }, { step: 1 }]);
  });

  it("stops at the first thrown error, which propagates", async () => {
    const calls: string[] = [];
    const chain = chainPreHooks("t", [
      () => void calls.push("a"),
      () => {
        throw new Error("denied");
      },
      () => void calls.push("c"),
    ])!;
    await expect(chain({})).rejects.toThrow("denied");
    expect(calls).toEqual(["a"]);
  });

  it("accepts sync and async handlers alike", async () => {
    const chain = chainPreHooks("t", [async () => ({ a: 1 }), (_t, _a, args) => ({ ...args, b: 2 })])!;
    expect(await chain({})).toEqual({ a: 1, b: 2 });
  });
});

describe("chainPostHooks", () => {
  it("runs only when the result is a plain object", async () => {
    const calls: unknown[] = [];
    const chain = chainPostHooks("t", [(_t, _a, _args, result) => void calls.push(result)])!;
    for (const result of ["text", 42, null, undefined, [1], new Map(), new (class Result {})()]) {
      expect(await chain(result)).toBe(result);
    }
    expect(calls).toEqual([]);
    await chain({ ok: true });
    expect(calls).toEqual([{ ok: true }]);
  });

  it('gives each handler (toolName, "", {}, result): an empty action and empty arguments', async () => {
    const seen: unknown[] = [];
    const chain = chainPostHooks("reader", [(...params: unknown[]) => void seen.push(params)])!;
    await chain({ success: true });
    expect(seen).toEqual([["reader", "", {}, { success: true }]]);
  });

  it("replaces the result with a returned object and ignores other returns", async () => {
    const chain = chainPostHooks("t", [() => ({ replaced: 1 }), () => "ignored", (_t, _a, _x, result) => ({ ...result, more: 2 })])!;
    expect(await chain({ original: 0 })).toEqual({ replaced: 1, more: 2 });
  });

  it("is null when there are no hooks", () => {
    expect(chainPostHooks("t", [])).toBeNull();
  });
});
