// How a HookEvent calls its registry: what the handler receives, and that a registry which
// replaces `call` still sees every call (HookEvent only skips `call` for the registry's own).
import { afterEach, describe, expect, it } from "vitest";
import {
  APICalling,
  Event,
  EventStatus,
  HookEvent,
  HookEventTypes,
  HookRegistry,
  IModel,
  ScriptedEndpoint,
  globalHookLog,
  type ChunkCallOptions,
  type ChunkCallResult,
  type EventClass,
  type HookParams,
  type PhaseCallOptions,
  type PhaseCallResult,
} from "@hooklens/runtime";

afterEach(() => globalHookLog.clear());

class Target extends Event {}

describe("HookEvent handler params", () => {
  it("drop params named like the call's own options, OR a params exit into the exit flag and put exit last", async () => {
    let seen: HookParams | null = null;
    const tag = Symbol("tag");
    const event = new HookEvent({
      registry: new HookRegistry({ hooks: { pre_invocation: (_e, params) => void (seen = params) } }),
      hookType: HookEventTypes.PreInvocation,
      eventLike: new Target(),
      exit: false,
      params: { tenant: "t1", hookType: "x", chunkType: "y", chunk: 1, shouldExit: true, signal: "not a signal", exit: true, [tag]: 7 },
    });
    await event.invoke();
    expect(Object.keys(seen!)).toEqual(["tenant", "exit"]);
    expect(seen!.exit).toBe(true);
    expect((seen as unknown as Record<symbol, unknown>)[tag]).toBe(7);
    expect(seen!.signal).toBeInstanceOf(AbortSignal);
    expect(event.shouldExit).toBe(false);
  });

  it("are a fresh object on every run, so a handler's edits do not leak into the next run", async () => {
    const runs: HookParams[] = [];
    const event = new HookEvent({
      registry: new HookRegistry({ hooks: { pre_invocation: (_e, params) => void runs.push(params) } }),
      hookType: HookEventTypes.PreInvocation,
      eventLike: new Target(),
    });
    await event.invoke();
    runs[0]!["added"] = true;
    await event.invoke();
    expect(runs[1]).not.toBe(runs[0]);
    expect(Object.keys(runs[1]!)).toEqual(["exit"]);
    expect(event.params).toEqual({});
  });
});

describe("a registry that replaces call", () => {
  class RecordingRegistry extends HookRegistry {
    readonly calls: string[] = [];
    override call(eventLike: Event | EventClass, options: PhaseCallOptions): Promise<PhaseCallResult>;
    override call(eventLike: Event | EventClass | null, options: ChunkCallOptions): Promise<ChunkCallResult>;
    override call(eventLike: Event | EventClass | null, options: PhaseCallOptions | ChunkCallOptions): Promise<PhaseCallResult | ChunkCallResult> {
      this.calls.push(String(options.hookType ?? options.chunkType));
      return super.call(eventLike, options as PhaseCallOptions);
    }
  }

  it("receives every phase call an IModel makes, with the same outcomes", async () => {
    const registry = new RecordingRegistry({ hooks: { pre_event_create: () => null, pre_invocation: async () => "pre", post_invocation: () => "post" } });
    const model = new IModel({ endpoint: new ScriptedEndpoint({ script: ["pong"] }), hookRegistry: registry });
    const call = await model.invoke({ messages: [{ role: "user", content: "ping" }] });
    expect(registry.calls).toEqual(["pre_event_create", "pre_invocation", "post_invocation"]);
    expect(call.status).toBe(EventStatus.COMPLETED);
    expect([call.preInvokeHookEvent!.response, call.postInvokeHookEvent!.response]).toEqual(["pre", "post"]);
    expect(call.postInvokeHookEvent!.associatedEventInfo).toEqual({ lionClass: "APICalling", eventId: call.id, eventCreatedAt: call.createdAt });
    expect(globalHookLog.entries().map((entry) => entry.hookType)).toEqual(["pre_event_create", "pre_invocation", "post_invocation"]);
  });
});

describe("HookEvent associated event info", () => {
  it("is one object per run: the same object on every read until the hook runs again", async () => {
    const target = new Target();
    const event = new HookEvent({ registry: new HookRegistry({ hooks: { pre_invocation: () => null } }), hookType: HookEventTypes.PreInvocation, eventLike: target });
    expect(event.associatedEventInfo).toBeNull();
    await event.invoke();
    const first = event.associatedEventInfo;
    expect(first).toEqual({ lionClass: "Target", eventId: target.id, eventCreatedAt: target.createdAt });
    expect(event.associatedEventInfo).toBe(first);
    await event.invoke();
    expect(event.associatedEventInfo).not.toBe(first);
    expect(event.associatedEventInfo).toEqual(first);
  });

  it("can be replaced by assignment", async () => {
    const event = new HookEvent({ registry: new HookRegistry({ hooks: { pre_event_create: () => null } }), hookType: HookEventTypes.PreEventCreate, eventLike: APICalling });
    await event.invoke();
    expect(event.associatedEventInfo).toEqual({ lionClass: "APICalling" });
    event.associatedEventInfo = { lionClass: "Other" };
    expect(event.associatedEventInfo).toEqual({ lionClass: "Other" });
  });
});

describe("Event id and metadata", () => {
  it("an id is one UUID v4 for the event's whole life, and a given id is kept", () => {
    const event = new Target();
    expect(event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(event.id).toBe(event.id);
    expect(new Target().id).not.toBe(event.id);
    expect(new Target({ id: "given" }).id).toBe("given");
  });

  it("metadata starts empty, keeps what is written into it and can be replaced", () => {
    const event = new Target();
    expect(event.metadata).toEqual({});
    event.metadata["note"] = 1;
    expect(event.metadata).toEqual({ note: 1 });
    event.metadata = { other: 2 };
    expect(event.metadata).toEqual({ other: 2 });
    const given = { a: 1 };
    expect(new Target({ metadata: given }).metadata).toBe(given);
  });
});
