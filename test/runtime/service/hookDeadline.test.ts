// The deadlines of pending hook handlers share one timer per duration: these pin what that must
// not change (each hook's own time limit, the process kept open only while a hook is pending).
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import {
  APICalling,
  EventStatus,
  HookEvent,
  HookEventTypes,
  HookRegistry,
  HookTimeoutError,
  ScriptedEndpoint,
  type HookParams,
  type PhaseHookHandler,
} from "@hooklens/runtime";
import { never } from "./support.js";

function hookEvent(handler: PhaseHookHandler, timeout: number | null = 30): HookEvent {
  return new HookEvent({
    registry: new HookRegistry({ hooks: { pre_invocation: handler } }),
    hookType: HookEventTypes.PreInvocation,
    eventLike: new APICalling({ endpoint: new ScriptedEndpoint(), payload: {} }),
    timeout,
  });
}

/** Timers holding the process open right now. */
function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
}

function nextLoopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe("hook deadlines", () => {
  it("a pending hook holds the process open, and once it settles in time no timer does", async () => {
    await nextLoopTurn();
    const before = activeTimers();
    let release: () => void = () => {};
    const event = hookEvent(() => new Promise<void>((resolve) => (release = resolve)), 30);
    const running = event.invoke();
    await nextLoopTurn();
    expect(event.status).toBe(EventStatus.PROCESSING);
    expect(activeTimers()).toBeGreaterThan(before);
    release();
    await running;
    await nextLoopTurn();
    expect(event.status).toBe(EventStatus.COMPLETED);
    expect(activeTimers()).toBe(before);
  });

  it("hooks with different time limits each time out on their own", async () => {
    const finished: string[] = [];
    const slow = hookEvent(() => never(), 0.3);
    const fast = hookEvent(() => never(), 0.03);
    const runs = [slow.invoke().then(() => finished.push("slow")), fast.invoke().then(() => finished.push("fast"))];
    await Promise.all(runs);
    expect(finished).toEqual(["fast", "slow"]);
    for (const event of [slow, fast]) {
      expect(event.status).toBe(EventStatus.FAILED);
      expect(event.exitCause).toBeInstanceOf(HookTimeoutError);
    }
  });

  it("a hook's time limit counts from its own start, not from an earlier hook's", async () => {
    await hookEvent(async () => "quick", 0.05).invoke(); // the shared timer is now set for this one
    await sleep(25);
    const late = hookEvent(() => never(), 0.05);
    await late.invoke();
    expect(late.exitCause).toBeInstanceOf(HookTimeoutError);
    // Never early (a timer may fire up to a millisecond ahead of the monotonic clock).
    expect(late.execution.duration).toBeGreaterThanOrEqual(0.045);
  });

  it("many concurrent hooks of one duration all time out, and ones that settle are not disturbed", async () => {
    const hanging = Array.from({ length: 50 }, () => hookEvent(() => never(), 0.03));
    const quick = Array.from({ length: 50 }, (_, i) => hookEvent(async () => i, 0.03));
    await Promise.all([...hanging, ...quick].map((event) => event.invoke()));
    expect(hanging.every((event) => event.status === EventStatus.FAILED && event.exitCause instanceof HookTimeoutError)).toBe(true);
    expect(quick.map((event) => event.response)).toEqual(quick.map((_, i) => i));
  });

  it("params.signal read after a run that returned at once is live, and attaches nothing to the caller's signal", async () => {
    const caller = new AbortController();
    let kept: HookParams | null = null;
    const event = hookEvent((_e, params) => void (kept = params));
    await event.invoke({ signal: caller.signal });
    expect(kept!.signal!.aborted).toBe(false);
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
  });

  it("params.signal read after a run that timed out is aborted with the HookTimeoutError", async () => {
    let kept: HookParams | null = null;
    const event = hookEvent((_e, params) => {
      kept = params;
      return never();
    }, 0.02);
    await event.invoke();
    expect(kept!.signal!.aborted).toBe(true);
    expect(kept!.signal!.reason).toBe(event.exitCause);
  });

  it("params.signal read after the caller aborted is aborted with the caller's reason", async () => {
    const caller = new AbortController();
    let kept: HookParams | null = null;
    const event = hookEvent((_e, params) => void (kept = params));
    await event.invoke({ signal: caller.signal });
    caller.abort("stopped");
    expect(kept!.signal!.aborted).toBe(true);
    expect(kept!.signal!.reason).toBe("stopped");
  });
});
