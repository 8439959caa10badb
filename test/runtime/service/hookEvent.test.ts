import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import {
  InvalidValueError,
  APICalling,
  DEFAULT_HOOK_TIMEOUT,
  Event,
  EventStatus,
  HookEvent,
  HookEventTypes,
  HookRegistry,
  HookTimeoutError,
  MissingHookHandlerError,
  type PhaseHookHandler,
} from "@hooklens/runtime";
import { abortError, never } from "./support.js";

class Target extends Event {}

function hookEvent(handler: PhaseHookHandler | null, options: { hookType?: HookEventTypes; exit?: boolean | null; timeout?: number | null; params?: Record<string, unknown> } = {}): HookEvent {
  const hookType = options.hookType ?? HookEventTypes.PreInvocation;
  const registry = new HookRegistry({ hooks: handler ? { [hookType]: handler } : {} });
  return new HookEvent({
    registry,
    hookType,
    eventLike: hookType === HookEventTypes.PreEventCreate ? APICalling : new Target(),
    ...(options.exit !== undefined && { exit: options.exit }),
    ...(options.timeout !== undefined && { timeout: options.timeout }),
    ...(options.params && { params: options.params }),
  });
}

const raising: PhaseHookHandler = () => {
  throw new Error("hook said no");
};

describe("HookEvent defaults", () => {
  it("waits 30 seconds by default and reads a null exit as false", () => {
    const event = hookEvent(null, { exit: null });
    expect(DEFAULT_HOOK_TIMEOUT).toBe(30);
    expect(event.timeout).toBe(30);
    expect(event.exit).toBe(false);
  });
});

describe("HookEvent.invoke outcomes", () => {
  it("records a handler's result as the response, COMPLETED, with the associated event info", async () => {
    const event = hookEvent(async () => "ok");
    await event.invoke();
    const target = event.eventLike as Target;
    expect(event.status).toBe(EventStatus.COMPLETED);
    expect(event.response).toBe("ok");
    expect(event.execution.error).toBeNull();
    expect(event.associatedEventInfo).toEqual({ lionClass: "Target", eventId: target.id, eventCreatedAt: target.createdAt });
    expect(event.shouldExit).toBe(false);
    expect(event.execution.duration).not.toBeNull();
  });

  it("hands the handler its params plus exit", async () => {
    let params: unknown = null;
    const event = hookEvent((_e, p) => (params = { ...p }), { params: { tenant: "t1" }, exit: true });
    await event.invoke();
    expect(params).toEqual({ tenant: "t1", exit: true });
  });

  it("a raising pre handler leaves CANCELLED with the message as a string error, no response, shouldExit false", async () => {
    const event = hookEvent(raising);
    await expect(event.invoke()).resolves.toBeUndefined();
    expect(event.status).toBe(EventStatus.CANCELLED);
    expect(event.execution.error).toBe("hook said no");
    expect(event.response).toBeNull();
    expect(event.shouldExit).toBe(false);
    expect((event.exitCause as Error).message).toBe("hook said no");
  });

  it("a raising pre handler with exit true asks the caller to exit", async () => {
    const event = hookEvent(raising, { exit: true });
    await event.invoke();
    expect(event.shouldExit).toBe(true);
  });

  it("a raising post handler leaves ABORTED", async () => {
    const event = hookEvent(raising, { hookType: HookEventTypes.PostInvocation });
    await event.invoke();
    expect(event.status).toBe(EventStatus.ABORTED);
  });

  it("trap: a handler that returns an Error instead of throwing leaves COMPLETED, records the message and does not exit", async () => {
    const returned = new Error("returned, not thrown");
    const event = hookEvent(() => returned, { exit: true });
    await event.invoke();
    expect(event.status).toBe(EventStatus.COMPLETED);
    expect(event.execution.error).toBe("returned, not thrown");
    expect(event.response).toBeNull();
    expect(event.shouldExit).toBe(false);
    expect(event.exitCause).toBe(returned);
  });

  it("trap: a handler that returns a two-item array [value, Error] ends FAILED with that error", async () => {
    const inner = new RangeError("second item");
    const event = hookEvent(() => ["value", inner], { exit: true });
    await event.invoke();
    expect(event.status).toBe(EventStatus.FAILED);
    expect(event.execution.error).toBe("second item");
    expect(event.exitCause).toBe(inner);
    expect(event.shouldExit).toBe(true);
  });

  it("trap: a handler that returns any other two-item array ends FAILED too", async () => {
    const event = hookEvent(() => [1, 2]);
    await event.invoke();
    expect(event.status).toBe(EventStatus.FAILED);
    expect(event.exitCause).toBeInstanceOf(TypeError);
  });

  it("a missing handler is the registry's cancelled result, not a failure", async () => {
    const event = hookEvent(null);
    await event.invoke();
    expect(event.status).toBe(EventStatus.CANCELLED);
    expect(event.exitCause).toBeInstanceOf(MissingHookHandlerError);
  });

  it("a wiring failure (a class where an event is needed) ends FAILED and follows the exit flag", async () => {
    const registry = new HookRegistry({ hooks: { pre_invoke: () => null } });
    const event = new HookEvent({ registry, hookType: HookEventTypes.PreInvocation, eventLike: APICalling, exit: true });
    await event.invoke();
    expect(event.status).toBe(EventStatus.FAILED);
    expect(event.exitCause).toBeInstanceOf(InvalidValueError);
    expect(event.shouldExit).toBe(true);
  });

  it("runs again on every invoke (no pending check)", async () => {
    let runs = 0;
    const event = hookEvent(() => ++runs);
    await event.invoke();
    await event.invoke();
    expect(runs).toBe(2);
    expect(event.response).toBe(2);
  });
});

describe("HookEvent timeout", () => {
  it("ends FAILED with a HookTimeoutError when the handler outlives its timeout", async () => {
    const event = hookEvent(() => never(), { timeout: 0.02 });
    await event.invoke();
    expect(event.status).toBe(EventStatus.FAILED);
    expect(event.exitCause).toBeInstanceOf(HookTimeoutError);
    expect(event.execution.error).toMatch(/did not finish within 0.02 s/);
    expect(event.shouldExit).toBe(false);
  });

  it("a timeout with exit true asks the caller to exit", async () => {
    const event = hookEvent(() => never(), { timeout: 0.02, exit: true });
    await event.invoke();
    expect(event.shouldExit).toBe(true);
  });

  it("aborts params.signal with the HookTimeoutError so the handler can stop its work", async () => {
    let reason: unknown = null;
    const event = hookEvent(
      (_e, params) =>
        new Promise((_resolve, reject) => {
          params.signal!.addEventListener("abort", () => {
            reason = params.signal!.reason;
            reject(params.signal!.reason);
          });
        }),
      { timeout: 0.02 },
    );
    await event.invoke();
    expect(reason).toBeInstanceOf(HookTimeoutError);
    expect(event.status).toBe(EventStatus.FAILED);
  });

  it("a null timeout sets no deadline", async () => {
    const event = hookEvent(() => new Promise((resolve) => setTimeout(() => resolve("late"), 30)), { timeout: null });
    await event.invoke();
    expect(event.status).toBe(EventStatus.COMPLETED);
    expect(event.response).toBe("late");
  });
});

describe("HookEvent cancellation", () => {
  it("a caller's abort propagates, leaving CANCELLED and shouldExit true", async () => {
    const controller = new AbortController();
    const event = hookEvent(() => never());
    const running = event.invoke({ signal: controller.signal });
    controller.abort(abortError("caller stopped"));
    await expect(running).rejects.toThrow("caller stopped");
    expect(event.status).toBe(EventStatus.CANCELLED);
    expect(event.shouldExit).toBe(true);
    expect(event.execution.duration).not.toBeNull();
  });

  it("a handler that throws an AbortError cancels: the error propagates", async () => {
    const event = hookEvent(() => {
      throw abortError("handler cancelled");
    });
    await expect(event.invoke()).rejects.toThrow("handler cancelled");
    expect(event.status).toBe(EventStatus.CANCELLED);
  });
});

describe("HookEvent and a long-lived caller signal", () => {
  it("leaves no listener on the caller's signal once its runs are over", async () => {
    const controller = new AbortController();
    const late: { signal?: AbortSignal }[] = [];
    const event = hookEvent(async (_e, params) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      late.push(params); // its signal is first read after the run is over
    });
    for (let i = 0; i < 20; i++) await event.invoke({ signal: controller.signal });
    for (const params of late) expect(params.signal!.aborted).toBe(false);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});

describe("HookEvent.toDict", () => {
  it("includes the hook type and associated event info", async () => {
    const event = hookEvent(() => "x");
    await event.invoke();
    expect(event.toDict()).toMatchObject({ lionClass: "HookEvent", hookType: "pre_invocation", status: "completed", response: "x" });
    expect(event.toDict().associatedEventInfo?.lionClass).toBe("Target");
  });
});
