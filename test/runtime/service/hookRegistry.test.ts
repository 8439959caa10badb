import { describe, expect, it } from "vitest";
import {
  APICalling,
  Event,
  EventStatus,
  HookEventTypes,
  HookRegistry,
  HookValidationError,
  InvalidValueError,
  MissingHookHandlerError,
  ScriptedEndpoint,
  Undefined,
  type HookParams,
  type PhaseHookHandler,
  type StreamHandler,
} from "@hooklens/runtime";
import { abortError, captureLogs, never } from "./support.js";

class Probe extends Event {}
class TokenChunk {
  constructor(readonly text: string) {}
}

const noop: PhaseHookHandler = () => undefined;

function apiCall(): APICalling {
  return new APICalling({ endpoint: new ScriptedEndpoint(), payload: { messages: [] } });
}

describe("HookRegistry keys", () => {
  it.each([
    ["pre_invoke", HookEventTypes.PreInvocation],
    ["post_invoke", HookEventTypes.PostInvocation],
    ["pre_event_create_hook", HookEventTypes.PreEventCreate],
    ["pre_event_create", HookEventTypes.PreEventCreate],
    ["pre_invocation", HookEventTypes.PreInvocation],
    ["post_invocation", HookEventTypes.PostInvocation],
  ] as const)("normalises the key %s to the phase %s", (key, phase) => {
    const registry = new HookRegistry({ hooks: { [key]: noop } });
    expect(registry.canHandle({ hookType: phase })).toBe(true);
  });

  it("rejects any other key with a validation error that lists the accepted keys", () => {
    const bad = { preInvoke: noop } as unknown as Record<"pre_invoke", PhaseHookHandler>;
    expect(() => new HookRegistry({ hooks: bad })).toThrow(HookValidationError);
    expect(() => new HookRegistry({ hooks: bad })).toThrow(/"preInvoke".*pre_event_create, pre_invocation, post_invocation.*pre_invoke/);
  });

  it("rejects a hook value that is not a function", () => {
    const bad = { pre_invoke: "handler" } as unknown as Record<"pre_invoke", PhaseHookHandler>;
    expect(() => new HookRegistry({ hooks: bad })).toThrow(/pre_invocation hook must be a function/);
  });

  it("rejects an unknown option, such as a phase key given without hooks: {…}", () => {
    const bad = { pre_invoke: noop } as unknown as ConstructorParameters<typeof HookRegistry>[0];
    expect(() => new HookRegistry(bad)).toThrow(/Unknown HookRegistry option "pre_invoke"/);
  });

  it("rejects hooks that are not an object", () => {
    expect(() => new HookRegistry({ hooks: 42 as unknown as Record<string, PhaseHookHandler> })).toThrow(HookValidationError);
  });

  it("accepts stream handlers keyed by a string or by a class", () => {
    const byClass: StreamHandler<typeof TokenChunk> = () => null;
    const registry = new HookRegistry({ streamHandlers: [["Object", () => null], [TokenChunk, byClass]] });
    expect(registry.canHandle({ chunkType: "Object" })).toBe(true);
    expect(registry.canHandle({ chunkType: TokenChunk })).toBe(true);
    expect(registry.canHandle({ chunkType: "TokenChunk" })).toBe(false);
  });

  it("rejects a stream handler key that is neither a string nor a class", () => {
    const bad = new Map<unknown, StreamHandler>([[7, () => null]]) as unknown as Map<string, StreamHandler>;
    expect(() => new HookRegistry({ streamHandlers: bad })).toThrow(/key must be a string or a class/);
  });

  it("rejects a stream handler that is not a function", () => {
    const bad = { Object: null } as unknown as Record<string, StreamHandler>;
    expect(() => new HookRegistry({ streamHandlers: bad })).toThrow(/stream handler for Object must be a function/);
  });
});

describe("HookRegistry registration methods", () => {
  it("registers one handler per phase through preEventCreateHook, preInvoke and postInvoke, returning it", () => {
    const registry = new HookRegistry();
    expect(registry.preEventCreateHook(noop)).toBe(noop);
    expect(registry.preInvoke(noop)).toBe(noop);
    expect(registry.postInvoke(noop)).toBe(noop);
    for (const phase of Object.values(HookEventTypes)) expect(registry.canHandle({ hookType: phase })).toBe(true);
  });

  it("overwrites an existing phase handler with a warning, and only the new one runs", async () => {
    const registry = new HookRegistry();
    const calls: string[] = [];
    registry.preInvoke(() => calls.push("old"));
    await captureLogs(async (logs) => {
      registry.preInvoke(() => calls.push("new"));
      expect(logs).toEqual([expect.objectContaining({ level: "warn", msg: "Overwriting existing pre_invocation hook" })]);
    });
    await registry.preInvocation(new Probe());
    expect(calls).toEqual(["new"]);
  });

  it("does not warn on a first registration", async () => {
    await captureLogs((logs) => {
      new HookRegistry().postInvoke(noop);
      expect(logs).toEqual([]);
    });
  });
});

describe("HookRegistry.call return shapes", () => {
  it("returns [[result, false, completed], { lionClass }] for pre_event_create, with no event id", async () => {
    const registry = new HookRegistry({ hooks: { pre_event_create: () => "made" } });
    const out = await registry.call(APICalling, { hookType: HookEventTypes.PreEventCreate });
    expect(out).toEqual([["made", false, EventStatus.COMPLETED], { lionClass: "APICalling" }]);
  });

  it.each([HookEventTypes.PreInvocation, HookEventTypes.PostInvocation])(
    "returns [[result, false, completed], meta] for %s with lionClass, eventId and eventCreatedAt",
    async (hookType) => {
      const registry = new HookRegistry({ hooks: { [hookType]: async () => 7 } });
      const call = apiCall();
      const out = await registry.call(call, { hookType });
      expect(out).toEqual([[7, false, EventStatus.COMPLETED], { lionClass: "APICalling", eventId: call.id, eventCreatedAt: call.createdAt }]);
    },
  );

  it("returns three values and no meta for a chunk, with a null status on success", async () => {
    const registry = new HookRegistry({ streamHandlers: { String: () => "seen" } });
    const out = await registry.call(null, { chunkType: "String", chunk: "x" });
    expect(out).toEqual(["seen", false, null]);
  });

  it("lets hookType win when both hookType and chunkType are given", async () => {
    const registry = new HookRegistry({ hooks: { pre_invoke: () => "phase" }, streamHandlers: { String: () => "chunk" } });
    const [[result]] = await registry.call(new Probe(), { hookType: "pre_invocation", chunkType: "String", chunk: "x" });
    expect(result).toBe("phase");
  });

  it("rejects a call with neither hookType nor chunkType", async () => {
    const registry = new HookRegistry();
    await expect(registry.call(new Probe(), {} as { chunkType: string })).rejects.toThrow(InvalidValueError);
    await expect(registry.call(new Probe(), {} as { chunkType: string })).rejects.toThrow("Either hookType or chunkType must be provided");
  });

  it("rejects a pre_invocation call on a class, which has no event id", async () => {
    const registry = new HookRegistry({ hooks: { pre_invoke: noop } });
    await expect(registry.call(APICalling, { hookType: "pre_invocation" })).rejects.toThrow(InvalidValueError);
  });

  it("sends an unknown hookType string down the chunk path, as the original does", async () => {
    const registry = new HookRegistry({ hooks: { pre_invoke: noop } });
    const out = (await registry.call(new Probe(), { hookType: "pre_invoke" as HookEventTypes })) as unknown as unknown[];
    expect(out).toHaveLength(3);
    expect(out[2]).toBe(EventStatus.ABORTED);
    expect(String(out[0])).toContain("No stream handler registered for undefined");
  });
});

describe("HookRegistry handler arguments", () => {
  it("calls a phase handler with the event and params that always hold exit", async () => {
    let seen: [unknown, HookParams] | null = null;
    const registry = new HookRegistry({ hooks: { pre_invoke: (event, params) => (seen = [event, params]) } });
    const probe = new Probe();
    await registry.call(probe, { hookType: "pre_invocation", user: "ada" });
    expect(seen![0]).toBe(probe);
    expect(seen![1]).toEqual({ user: "ada", exit: false });
  });

  it("re-injects exit as the OR of shouldExit and the legacy exit option", async () => {
    const exits: unknown[] = [];
    const registry = new HookRegistry({ hooks: { post_invoke: (_e, params) => exits.push(params.exit) } });
    await registry.call(new Probe(), { hookType: "post_invocation", shouldExit: true });
    await registry.call(new Probe(), { hookType: "post_invocation", exit: true });
    await registry.call(new Probe(), { hookType: "post_invocation", exit: 0 });
    expect(exits).toEqual([true, true, false]);
  });

  it("calls a stream handler as (null, chunkType, chunk, params)", async () => {
    let args: unknown[] = [];
    const registry = new HookRegistry({ streamHandlers: { Object: (...received) => (args = received) } });
    await registry.call(null, { chunkType: "Object", chunk: { n: 1 }, shouldExit: true, note: "x" });
    expect(args).toEqual([null, "Object", { n: 1 }, { note: "x", exit: true }]);
  });

  it("passes the class itself as chunkType to a handler registered under a class", async () => {
    let received: unknown = null;
    const handler: StreamHandler<typeof TokenChunk> = (_e, chunkType) => (received = chunkType);
    const registry = new HookRegistry({ streamHandlers: [[TokenChunk, handler]] });
    await registry.handleStreamingChunk(TokenChunk, new TokenChunk("hi"));
    expect(received).toBe(TokenChunk);
  });

  it("accepts sync handlers", async () => {
    const registry = new HookRegistry({ hooks: { pre_event_create: () => 42 } });
    expect(await registry.preEventCreate(APICalling)).toEqual([42, false, EventStatus.COMPLETED]);
  });

  it("passes the caller's signal on as params.signal", async () => {
    const controller = new AbortController();
    let signal: unknown = null;
    const registry = new HookRegistry({ hooks: { pre_invoke: (_e, params) => (signal = params.signal) } });
    await registry.preInvocation(new Probe(), { signal: controller.signal });
    expect(signal).toBe(controller.signal);
  });
});

describe("HookRegistry status matrix", () => {
  const failing = (): never => {
    throw new Error("handler failed");
  };
  const phases = [
    ["pre_event_create", (r: HookRegistry, exit: boolean) => r.preEventCreate(APICalling, { shouldExit: exit }), EventStatus.CANCELLED],
    ["pre_invocation", (r: HookRegistry, exit: boolean) => r.preInvocation(new Probe(), { shouldExit: exit }), EventStatus.CANCELLED],
    ["post_invocation", (r: HookRegistry, exit: boolean) => r.postInvocation(new Probe(), { shouldExit: exit }), EventStatus.ABORTED],
  ] as const;

  it.each(phases)("a raising %s handler gives [error, false, %s] with exit false", async (phase, run, status) => {
    const registry = new HookRegistry({ hooks: { [phase]: failing } });
    const [result, shouldExit, got] = await run(registry, false);
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toBe("handler failed");
    expect(shouldExit).toBe(false);
    expect(got).toBe(status);
  });

  it.each(phases)("a raising %s handler gives shouldExit true with exit true", async (phase, run) => {
    const registry = new HookRegistry({ hooks: { [phase]: failing } });
    const [, shouldExit] = await run(registry, true);
    expect(shouldExit).toBe(true);
  });

  it.each(phases)("a cancelled %s handler gives [[Undefined, error], true, cancelled] even with exit false", async (phase, run) => {
    const cancel = abortError();
    const registry = new HookRegistry({
      hooks: {
        [phase]: () => {
          throw cancel;
        },
      },
    });
    expect(await run(registry, false)).toEqual([[Undefined, cancel], true, EventStatus.CANCELLED]);
  });

  it("a raising stream handler gives [error, exit, aborted]", async () => {
    const registry = new HookRegistry({ streamHandlers: { String: failing } });
    const [result, shouldExit, status] = await registry.handleStreamingChunk("String", "x", { exit: true });
    expect((result as Error).message).toBe("handler failed");
    expect(shouldExit).toBe(true);
    expect(status).toBe(EventStatus.ABORTED);
  });

  it("a cancelled stream handler gives [[Undefined, error], true, cancelled]", async () => {
    const cancel = abortError();
    const registry = new HookRegistry({
      streamHandlers: {
        String: () => {
          throw cancel;
        },
      },
    });
    expect(await registry.handleStreamingChunk("String", "x")).toEqual([[Undefined, cancel], true, EventStatus.CANCELLED]);
  });

  it("an aborted caller signal turns a pending handler into the cancellation shape", async () => {
    const controller = new AbortController();
    const registry = new HookRegistry({ hooks: { pre_invoke: () => never() } });
    const pending = registry.preInvocation(new Probe(), { signal: controller.signal });
    controller.abort(new Error("stop now"));
    const [result, shouldExit, status] = await pending;
    expect((result as unknown[])[0]).toBe(Undefined);
    expect(((result as unknown[])[1] as Error).message).toBe("stop now");
    expect([shouldExit, status]).toEqual([true, EventStatus.CANCELLED]);
  });
});

describe("HookRegistry missing handlers", () => {
  it("a pre phase without a handler gives a MissingHookHandlerError result, cancelled", async () => {
    const [result, shouldExit, status] = await new HookRegistry().preInvocation(new Probe(), { exit: true });
    expect(result).toBeInstanceOf(MissingHookHandlerError);
    expect((result as Error).message).toBe("Hook type is required when chunkType is not provided");
    expect([shouldExit, status]).toEqual([true, EventStatus.CANCELLED]);
  });

  it("the post phase without a handler is aborted", async () => {
    const [result, , status] = await new HookRegistry().postInvocation(new Probe());
    expect(result).toBeInstanceOf(MissingHookHandlerError);
    expect(status).toBe(EventStatus.ABORTED);
  });

  it("a chunk without a stream handler gives 'No stream handler registered for <key>', aborted", async () => {
    const [result, shouldExit, status] = await new HookRegistry().handleStreamingChunk("Object", {});
    expect((result as Error).message).toBe("No stream handler registered for Object");
    expect([shouldExit, status]).toEqual([false, EventStatus.ABORTED]);
  });

  it("a non-function passed to a registration method is refused at once, not at call time", () => {
    const registry = new HookRegistry();
    expect(() => registry.preInvoke("not a function" as unknown as PhaseHookHandler)).toThrow(
      new InvalidValueError('HookRegistry pre_invocation hook: the handler must be a function, got a string ("not a function")'),
    );
    expect(registry.canHandle({ hookType: "pre_invocation" })).toBe(false);
  });
});

describe("HookRegistry.canHandle", () => {
  it("is false for a phase or chunk key nothing is registered for", () => {
    const registry = new HookRegistry({ hooks: { pre_invoke: noop } });
    expect(registry.canHandle({ hookType: "post_invocation" })).toBe(false);
    expect(registry.canHandle({ chunkType: "Object" })).toBe(false);
    expect(registry.canHandle({})).toBe(false);
  });
});
