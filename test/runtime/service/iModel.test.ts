import { performance } from "node:perf_hooks";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  APICalling,
  DEFAULT_CREATE_EVENT_HOOK_TIMEOUT,
  DEFAULT_INVOKE_HOOK_TIMEOUT,
  Event,
  EventStatus,
  HookedEvent,
  HookRegistry,
  HookTimeoutError,
  IModel,
  InvalidValueError,
  ScriptedEndpoint,
  globalHookLog,
  type EndpointPayload,
  type EndpointRequest,
  type HookDict,
  type HookParams,
  type StreamHandler,
  type StreamHandlers,
} from "@hooklens/runtime";
import { abortError, collect, drain, never } from "./support.js";

const ask = { messages: [{ role: "user", content: "hello there" }] };

/** A scripted endpoint that also records when payloads are built. */
class TracingEndpoint extends ScriptedEndpoint {
  constructor(
    readonly trace: string[],
    options: ConstructorParameters<typeof ScriptedEndpoint>[0] = {},
  ) {
    super(options);
  }
  override createPayload(request: EndpointPayload): EndpointRequest {
    this.trace.push("createPayload");
    return super.createPayload(request);
  }
}

/** A model over a tracing scripted endpoint with these phase handlers (and stream handlers). */
function model(setup: HookDict & { streamHandlers?: StreamHandlers } = {}, options: { exitHook?: boolean; script?: string[] } = {}): { model: IModel; trace: string[]; endpoint: TracingEndpoint } {
  const trace: string[] = [];
  const endpoint = new TracingEndpoint(trace, options.script ? { script: options.script } : {});
  const { streamHandlers, ...hooks } = setup;
  const hookRegistry = new HookRegistry({ hooks, ...(streamHandlers && { streamHandlers }) });
  return { model: new IModel({ endpoint, hookRegistry, ...(options.exitHook !== undefined && { exitHook: options.exitHook }) }), trace, endpoint };
}

beforeEach(() => globalHookLog.clear());
afterEach(() => globalHookLog.clear());

describe("IModel construction", () => {
  it("owns a fresh registry by default", () => {
    const endpoint = new ScriptedEndpoint();
    const a = new IModel({ endpoint });
    const b = new IModel({ endpoint });
    expect(a.hookRegistry).toBeInstanceOf(HookRegistry);
    expect(a.hookRegistry).not.toBe(b.hookRegistry);
    expect(a.exitHook).toBe(false);
  });

  it("uses a given registry as is", () => {
    const registry = new HookRegistry();
    expect(new IModel({ endpoint: new ScriptedEndpoint(), hookRegistry: registry }).hookRegistry).toBe(registry);
  });

  it("builds a registry from a plain { hooks, streamHandlers } object", () => {
    const m = new IModel({ endpoint: new ScriptedEndpoint(), hookRegistry: { hooks: { pre_invoke: () => null }, streamHandlers: { Object: () => null } } });
    expect(m.hookRegistry.canHandle({ hookType: "pre_invocation" })).toBe(true);
    expect(m.hookRegistry.canHandle({ chunkType: "Object" })).toBe(true);
  });

  it("builds a fresh registry from an empty object", () => {
    const m = new IModel({ endpoint: new ScriptedEndpoint(), hookRegistry: {} });
    expect(m.hookRegistry.canHandle({ hookType: "pre_invocation" })).toBe(false);
  });

  it("does not depend on the session scope: no service module imports from it", () => {
    const dir = fileURLToPath(new URL("../../../runtime/src/service/", import.meta.url));
    for (const file of readdirSync(dir)) {
      expect(readFileSync(`${dir}${file}`, "utf8"), file).not.toMatch(/from "\.\.\/session\//);
    }
  });
});

describe("IModel.createEvent", () => {
  it("resolves with the APICalling itself, not a tuple", async () => {
    const { model: m } = model({ pre_event_create: () => null });
    const call = await m.createEvent(ask);
    expect(call).toBeInstanceOf(APICalling);
    expect(call.payload).toMatchObject(ask);
  });

  it("runs the pre-create hook with the event class before the event is built", async () => {
    const { model: m, trace } = model({
      pre_event_create: (eventClass) => {
        trace.push(`hook(${(eventClass as typeof APICalling).name})`);
      },
    });
    await m.createEvent(ask);
    expect(trace).toEqual(["hook(APICalling)", "createPayload"]);
  });

  it("ignores the pre-create hook's return value, even a ready-made event", async () => {
    const substitute = new APICalling({ endpoint: new ScriptedEndpoint(), payload: {} });
    const { model: m } = model({ pre_event_create: () => substitute });
    const call = await m.createEvent(ask);
    expect(call).not.toBe(substitute);
    expect(call.payload).toMatchObject(ask);
  });

  it("still builds the event when the pre-create hook fails with exit false, and logs the hook", async () => {
    const { model: m } = model({
      pre_event_create: () => {
        throw new Error("create hook broke");
      },
    });
    const call = await m.createEvent(ask);
    expect(call).toBeInstanceOf(APICalling);
    const [entry] = globalHookLog.entries();
    expect(entry).toMatchObject({ hookType: "pre_event_create", status: "cancelled", error: "create hook broke" });
    expect(entry!.associatedEventInfo).toEqual({ lionClass: "APICalling", eventId: call.id, eventCreatedAt: call.createdAt });
  });

  it("rejects with the hook's own error when the pre-create hook fails with exit true, before building", async () => {
    const broke = new Error("create hook broke");
    const { model: m, trace } = model({
      pre_event_create: () => {
        throw broke;
      },
    });
    await expect(m.createEvent({ ...ask, createEventExitHook: true })).rejects.toBe(broke);
    expect(trace).toEqual([]);
  });

  it("falls back to the model's exitHook when createEventExitHook is not given", async () => {
    const { model: m } = model({ pre_event_create: () => Promise.reject(new Error("x")) }, { exitHook: true });
    await expect(m.createEvent(ask)).rejects.toThrow("x");
  });

  it("lets createEventExitHook false override a model exitHook of true", async () => {
    const { model: m } = model({ pre_event_create: () => Promise.reject(new Error("x")) }, { exitHook: true });
    await expect(m.createEvent({ ...ask, createEventExitHook: false })).resolves.toBeInstanceOf(APICalling);
  });

  it("rejects when the pre-create hook cancels", async () => {
    const { model: m } = model({
      pre_event_create: () => {
        throw abortError("create cancelled");
      },
    });
    await expect(m.createEvent(ask)).rejects.toThrow("create cancelled");
  });

  it("gives the pre-create hook 10 s by default and honours createEventHookTimeout", async () => {
    expect(DEFAULT_CREATE_EVENT_HOOK_TIMEOUT).toBe(10);
    const { model: m } = model({ pre_event_create: () => never() });
    await expect(m.createEvent({ ...ask, createEventHookTimeout: 0.02, createEventExitHook: true })).rejects.toBeInstanceOf(HookTimeoutError);
  });

  it("builds the event after a pre-create timeout when exit is false", async () => {
    const { model: m } = model({ pre_event_create: () => never() });
    await expect(m.createEvent({ ...ask, createEventHookTimeout: 0.02 })).resolves.toBeInstanceOf(APICalling);
    expect(globalHookLog.entries()[0]).toMatchObject({ status: "failed" });
  });

  it("passes createEventHookParams to the pre-create handler", async () => {
    let params: HookParams | null = null;
    const { model: m } = model({ pre_event_create: (_c, p) => (params = p) });
    await m.createEvent({ ...ask, createEventHookParams: { reason: "audit" } });
    expect(params).toEqual({ reason: "audit", exit: false });
  });

  it("attaches pre and post hook events only for the phases the registry handles", async () => {
    const { model: onlyPost } = model({ post_invoke: () => null });
    const call = await onlyPost.createEvent(ask);
    expect(call.preInvokeHookEvent).toBeNull();
    expect(call.postInvokeHookEvent).not.toBeNull();
    const { model: none } = model();
    const bare = await none.createEvent(ask);
    expect([bare.preInvokeHookEvent, bare.postInvokeHookEvent]).toEqual([null, null]);
  });

  it("gives each attached phase its own exit, timeout and params, 30 s by default", async () => {
    const { model: m } = model({ pre_invoke: () => null, post_invoke: () => null });
    const call = await m.createEvent({ ...ask, preInvokeEventExitHook: true, preInvokeEventHookTimeout: 5, preInvokeEventHookParams: { a: 1 }, postInvokeEventHookParams: { b: 2 } });
    const pre = call.preInvokeHookEvent!;
    const post = call.postInvokeHookEvent!;
    expect(DEFAULT_INVOKE_HOOK_TIMEOUT).toBe(30);
    expect([pre.exit, pre.timeout, pre.params]).toEqual([true, 5, { a: 1 }]);
    expect([post.exit, post.timeout, post.params]).toEqual([false, 30, { b: 2 }]);
  });

  it("lets a null per-phase exit fall back to the model's exitHook", async () => {
    const { model: m } = model({ pre_invoke: () => null, post_invoke: () => null }, { exitHook: true });
    const call = await m.createEvent({ ...ask, preInvokeEventExitHook: null, postInvokeEventExitHook: false });
    expect(call.preInvokeHookEvent!.exit).toBe(true);
    expect(call.postInvokeHookEvent!.exit).toBe(false);
  });

  it("keeps hook options out of the payload", async () => {
    const { model: m } = model({ pre_invoke: () => null });
    const call = await m.createEvent({ ...ask, temperature: 0, preInvokeEventHookTimeout: 5, createEventHookParams: {} });
    expect(Object.keys(call.payload).sort()).toEqual(["messages", "model", "temperature"]);
  });

  it("rejects an event type that is not a HookedEvent, after the pre-create hook already ran", async () => {
    class Plain extends Event {}
    const { model: m, trace } = model({ pre_event_create: () => trace.push("hook") });
    await expect(m.createEvent({ createEventType: Plain })).rejects.toThrow(InvalidValueError);
    await expect(m.createEvent({ createEventType: Plain })).rejects.toThrow("Unsupported event type: Plain. Only APICalling is supported.");
    expect(trace).toEqual(["hook", "hook"]);
  });

  it("builds another HookedEvent class from the request fields", async () => {
    class Custom extends HookedEvent {
      constructor(readonly fields: Record<string, unknown>) {
        super();
      }
    }
    const { model: m } = model({ pre_invoke: () => null });
    const event = (await m.createEvent({ createEventType: Custom, topic: "x" })) as unknown as Custom;
    expect(event).toBeInstanceOf(Custom);
    expect(event.fields).toEqual({ topic: "x" });
    expect(event.preInvokeHookEvent).not.toBeNull();
  });
});

describe("IModel: creation times and durations", () => {
  /** Keeps the thread busy, as a synchronous handler doing real work would. */
  function busy(ms: number): void {
    const until = performance.now() + ms;
    while (performance.now() < until);
  }

  it("stamps events with wall-clock seconds at sub-millisecond precision", async () => {
    const before = Date.now() / 1000;
    const { model: m } = model({ pre_event_create: () => null, pre_invoke: () => null });
    const call = await m.createEvent(ask);
    expect(call.createdAt).toBeGreaterThanOrEqual(before - 0.002);
    expect(call.createdAt).toBeLessThanOrEqual(Date.now() / 1000 + 0.002);
    expect(call.preInvokeHookEvent!.createdAt).toBe(call.createdAt);
  });

  it("creates the APICalling after a synchronous pre-create hook has ended", async () => {
    const { model: m } = model({ pre_event_create: () => busy(20) });
    const call = await m.createEvent(ask);
    const [created] = globalHookLog.entries();
    expect(created!.duration!).toBeGreaterThanOrEqual(0.02);
    expect(call.createdAt - created!.createdAt).toBeGreaterThanOrEqual(0.02 - 1e-6);
  });

  it("counts a synchronous pre and post hook in the call's duration", async () => {
    const { model: m } = model({ pre_invoke: () => busy(15), post_invoke: () => busy(15) });
    const call = await m.invoke(ask);
    const pre = call.preInvokeHookEvent!.execution.duration!;
    const post = call.postInvokeHookEvent!.execution.duration!;
    expect(pre).toBeGreaterThanOrEqual(0.015);
    expect(post).toBeGreaterThanOrEqual(0.015);
    expect(call.execution.duration!).toBeGreaterThanOrEqual(pre + post);
  });

  it("counts an asynchronous post hook in the call's duration", async () => {
    const { model: m } = model({ post_invoke: () => new Promise((resolve) => setTimeout(resolve, 25)) });
    const call = await m.invoke(ask);
    expect(call.postInvokeHookEvent!.execution.duration!).toBeGreaterThanOrEqual(0.02);
    expect(call.execution.duration!).toBeGreaterThanOrEqual(call.postInvokeHookEvent!.execution.duration!);
  });
});

describe("IModel.invoke", () => {
  it("resolves with the completed APICalling: response and token usage", async () => {
    const { model: m } = model({}, { script: ["Hi there friend"] });
    const call = await m.invoke(ask);
    expect(call.status).toBe(EventStatus.COMPLETED);
    expect((call.response as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe("Hi there friend");
    expect(call.usage).toEqual({ promptTokens: 2, completionTokens: 3, totalTokens: 5 });
  });

  it("drops a stream field", async () => {
    const { model: m } = model();
    const call = await m.invoke({ ...ask, stream: true });
    expect(call.payload["stream"]).toBeUndefined();
    expect(call.streaming).toBe(false);
  });

  it("resolves (does not reject) with a FAILED call when the provider fails", async () => {
    const failure = new Error("provider down");
    const m = new IModel({ endpoint: new ScriptedEndpoint({ script: [{ error: failure }] }) });
    const call = await m.invoke(ask);
    expect(call.status).toBe(EventStatus.FAILED);
    expect(call.execution.error).toBe(failure);
    expect(call.usage).toBeNull();
  });

  it("runs the whole hook cycle: pre-create, pre, provider, post", async () => {
    const seen: string[] = [];
    const { model: m } = model({
      pre_event_create: () => seen.push("create"),
      pre_invoke: () => seen.push("pre"),
      post_invoke: (event) => seen.push(`post:${(event as APICalling).status}`),
    });
    const call = await m.invoke(ask);
    expect(seen).toEqual(["create", "pre", "post:processing"]);
    expect(call.status).toBe(EventStatus.COMPLETED);
    expect(globalHookLog.entries().map((e) => e.hookType)).toEqual(["pre_event_create", "pre_invocation", "post_invocation"]);
  });

  it("wraps an error while creating the event as 'Failed to invoke API call: …'", async () => {
    const broke = new Error("create hook broke");
    const { model: m } = model({ pre_event_create: () => Promise.reject(broke) }, { exitHook: true });
    const error = await m.invoke(ask).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidValueError);
    expect((error as Error).message).toBe("Failed to invoke API call: create hook broke");
    expect((error as Error).cause).toBe(broke);
  });

  it("rejects with the abort reason, unwrapped, when the caller aborts; the call is CANCELLED", async () => {
    const controller = new AbortController();
    const endpoint = new ScriptedEndpoint({ latencyMs: 10_000 });
    const m = new IModel({ endpoint });
    const call = await m.createEvent(ask);
    const running = m.invoke({ apiCall: call, signal: controller.signal });
    controller.abort(abortError("user left"));
    await expect(running).rejects.toThrow("user left");
    expect(call.status).toBe(EventStatus.CANCELLED);
  });

  it("invokes a prepared APICalling", async () => {
    const { model: m, endpoint } = model();
    const call = await m.createEvent(ask);
    expect(await m.invoke({ apiCall: call })).toBe(call);
    expect(endpoint.callCount).toBe(1);
  });
});

describe("IModel.stream", () => {
  const text = (chunk: unknown): string | undefined => (chunk as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta?.content;

  it("yields the provider's chunks as is when nothing processes them", async () => {
    const { model: m } = model({}, { script: ["one two"] });
    const chunks = await collect(m.stream(ask));
    expect(chunks.map(text)).toEqual(["one ", "two", undefined]);
  });

  it("sends stream: true in the payload", async () => {
    const { model: m, endpoint } = model();
    await collect(m.stream(ask));
    expect(endpoint.lastPayload!["stream"]).toBe(true);
  });

  it("calls the stream handler for a plain JSON chunk under 'Object' as (null, 'Object', chunk, { exit })", async () => {
    const calls: unknown[][] = [];
    const { model: m } = model({ streamHandlers: { Object: (...args) => void calls.push(args) } }, { script: ["a"] });
    await collect(m.stream(ask));
    expect(calls[0]![0]).toBeNull();
    expect(calls[0]![1]).toBe("Object");
    expect(text(calls[0]![2])).toBe("a");
    expect(calls[0]![3]).toEqual({ exit: false });
  });

  it("replaces a chunk with the handler's non-null return and keeps it on null", async () => {
    const handler: StreamHandler = (_e, _t, chunk) => (text(chunk) === "keep" ? null : (text(chunk) ?? "end").toUpperCase());
    const { model: m } = model({ streamHandlers: { Object: handler } }, { script: ["swap keep"] });
    const chunks = await collect(m.stream(ask));
    expect(chunks[0]).toBe("SWAP ");
    expect(text(chunks[1])).toBe("keep");
    expect(chunks[2]).toBe("END");
  });

  it("gives the per-chunk handler precedence over streamingProcessFunc", async () => {
    let processed = 0;
    const m = new IModel({
      endpoint: new ScriptedEndpoint({ script: ["a b"] }),
      hookRegistry: { streamHandlers: { Object: () => "hooked" } },
      streamingProcessFunc: () => ++processed,
    });
    expect(await collect(m.stream(ask))).toEqual(["hooked", "hooked", "hooked"]);
    expect(processed).toBe(0);
  });

  it("uses streamingProcessFunc (sync or async) when no handler matches", async () => {
    const m = new IModel({ endpoint: new ScriptedEndpoint({ script: ["a"] }), streamingProcessFunc: async (chunk) => text(chunk) ?? null });
    const chunks = await collect(m.stream(ask));
    expect(chunks[0]).toBe("a");
    expect(text(chunks[1])).toBeUndefined();
  });

  it("prefers a handler registered under the chunk's class to one under its class name", async () => {
    class Token {
      constructor(readonly value: string) {}
    }
    const byClass: StreamHandler<typeof Token> = () => "by class";
    const m = new IModel({
      endpoint: new ScriptedEndpoint({ script: [{ chunks: [new Token("t")] }] }),
      hookRegistry: { streamHandlers: [["Token", () => "by name"], [Token, byClass]] },
    });
    expect(await collect(m.stream(ask))).toEqual(["by class"]);
  });

  it("finds a handler for a string chunk under 'String'", async () => {
    const m = new IModel({ endpoint: new ScriptedEndpoint({ script: [{ chunks: ["x", "y"] }] }), hookRegistry: { streamHandlers: { String: (_e, _t, c) => `<${String(c)}>` } } });
    expect(await collect(m.stream(ask))).toEqual(["<x>", "<y>"]);
  });

  it("keeps the original chunk when the handler fails and exit is off", async () => {
    const { model: m } = model({ streamHandlers: { String: () => Promise.reject(new Error("bad chunk")) } });
    const m2 = new IModel({ endpoint: new ScriptedEndpoint({ script: [{ chunks: ["x"] }] }), hookRegistry: m.hookRegistry });
    expect(await collect(m2.stream(ask))).toEqual(["x"]);
  });

  it("ends the stream with 'Failed to stream API call: …' when the handler fails and exit is on", async () => {
    const bad = new Error("bad chunk");
    const m = new IModel({ endpoint: new ScriptedEndpoint({ script: [{ chunks: ["x", "y"] }] }), hookRegistry: { streamHandlers: { String: () => Promise.reject(bad) } }, exitHook: true });
    const { received, error } = await drain(m.stream(ask));
    expect(received).toEqual([]);
    expect(error).toBeInstanceOf(InvalidValueError);
    expect((error as Error).message).toBe("Failed to stream API call: bad chunk");
    expect((error as Error).cause).toBe(bad);
  });

  it("rethrows a handler's cancellation unwrapped", async () => {
    const m = new IModel({
      endpoint: new ScriptedEndpoint({ script: [{ chunks: ["x"] }] }),
      hookRegistry: {
        streamHandlers: {
          String: () => {
            throw abortError("handler cancelled");
          },
        },
      },
    });
    const error = await collect(m.stream(ask)).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "AbortError", message: "handler cancelled" });
  });

  it("ends quietly when the provider fails mid-stream, leaving the APICalling FAILED", async () => {
    const broke = new Error("connection lost");
    const m = new IModel({ endpoint: new ScriptedEndpoint({ script: [{ chunks: ["a", "b"], error: broke, failAfterChunks: 1 }] }) });
    const call = await m.createEvent({ ...ask, stream: true });
    expect(await collect(m.stream({ apiCall: call }))).toEqual(["a"]);
    expect(call.status).toBe(EventStatus.FAILED);
    expect(call.execution.error).toBe(broke);
  });

  it("runs the post hook after the last chunk", async () => {
    const seen: string[] = [];
    const { model: m } = model({ pre_invoke: () => seen.push("pre"), post_invoke: () => seen.push("post"), streamHandlers: { Object: () => void seen.push("chunk") } }, { script: ["a b"] });
    await collect(m.stream(ask));
    expect(seen).toEqual(["pre", "chunk", "chunk", "chunk", "post"]);
  });

  it("records the usage the last chunk reports", async () => {
    const m = new IModel({ endpoint: new ScriptedEndpoint({ script: ["one two three"] }) });
    const call = await m.createEvent({ ...ask, stream: true });
    await collect(m.stream({ apiCall: call }));
    expect(call.usage).toEqual({ promptTokens: 2, completionTokens: 3, totalTokens: 5 });
  });

  it("throws errors from creating the event unwrapped (unlike invoke)", async () => {
    const broke = new Error("create hook broke");
    const { model: m } = model({ pre_event_create: () => Promise.reject(broke) }, { exitHook: true });
    await expect(collect(m.stream(ask))).rejects.toBe(broke);
  });
});

describe("IModel.copy", () => {
  it("shares the registry object and the exit policy under a new id", () => {
    const m = new IModel({ endpoint: new ScriptedEndpoint(), exitHook: true, providerMetadata: { region: "eu" } });
    const copy = m.copy();
    expect(copy.id).not.toBe(m.id);
    expect(copy.hookRegistry).toBe(m.hookRegistry);
    expect(copy.exitHook).toBe(true);
    expect(copy.endpoint).toBe(m.endpoint);
    expect(copy.providerMetadata).toEqual({ region: "eu" });
    expect(copy.providerMetadata).not.toBe(m.providerMetadata);
  });

  it("hooks registered on the original after copying also run for the copy", async () => {
    const m = new IModel({ endpoint: new ScriptedEndpoint() });
    const copy = m.copy();
    let ran = false;
    m.hookRegistry.preInvoke(() => (ran = true));
    await copy.invoke(ask);
    expect(ran).toBe(true);
  });
});
