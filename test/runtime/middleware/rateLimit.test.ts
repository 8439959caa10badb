import { describe, expect, it } from "vitest";
import {
  InvalidValueError,
  LLMInvocation,
  LLM_KIND,
  Rate,
  RateBuckets,
  RateLimitHook,
  ToolInvocation,
  createRunContext,
  runBefore,
  type RunContext,
  type ToolSpec,
} from "@hooklens/runtime";

/** A clock that only moves when the hook sleeps; records the time each call was let through. */
function fakeTime() {
  const time = { now: 0, sleeps: [] as number[] };
  const clock = () => time.now;
  const sleep = async (seconds: number, signal?: AbortSignal) => {
    time.sleeps.push(seconds);
    if (signal?.aborted) throw signal.reason;
  };
  return { time, clock, sleep };
}

const spec = (kind: string): ToolSpec => ({ name: `${kind}_tool`, kind, confirm: false, cacheable: false, schema: null });
const toolInv = (kind: string, ctx: RunContext = createRunContext()) =>
  new ToolInvocation(spec(kind), { id: "c", name: `${kind}_tool`, arguments: {} }, ctx);

/** A hook on Rate(1, 1) whose sleeps never end unless their signal aborts (then they reject). */
function cancellableHook() {
  const { time, clock } = fakeTime();
  const sleep = (seconds: number, signal?: AbortSignal) => {
    time.sleeps.push(seconds);
    return signal
      ? new Promise<void>((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)))
      : Promise.resolve();
  };
  return { time, hook: new RateLimitHook({ search: new Rate(1, 1) }, { clock, sleep }) };
}

describe("Rate", () => {
  it("refills calls / per per second", () => {
    expect(new Rate(5, 1).interval).toBe(0.2);
  });

  it.each([
    [0, 1],
    [1.5, 1],
    [1, 0],
    [1, -1],
    [1, Number.POSITIVE_INFINITY],
  ])("rejects Rate(%s, %s)", (calls, per) => {
    expect(() => new Rate(calls, per)).toThrow(InvalidValueError);
  });
});

describe("RateLimitHook with an injected clock", () => {
  it("allows a burst of `calls` without waiting, then one slot per calls/per seconds (exact booking times)", async () => {
    const { time, clock, sleep } = fakeTime();
    const hook = new RateLimitHook({ search: new Rate(2, 1.0) }, { clock, sleep });
    for (let i = 0; i < 5; i++) await runBefore([hook], "beforeTool", toolInv("search"));
    expect(time.sleeps).toEqual([0.5, 1.0, 1.5]);
  });

  it("refills while time passes", async () => {
    const { time, clock, sleep } = fakeTime();
    const hook = new RateLimitHook({ search: new Rate(2, 1.0) }, { clock, sleep });
    await hook.acquire("search");
    await hook.acquire("search");
    time.now = 0.5; // one slot back
    await hook.acquire("search");
    expect(time.sleeps).toEqual([]);
    await hook.acquire("search");
    expect(time.sleeps).toEqual([0.5]);
    time.now = 10; // the bucket is full again, but a burst never exceeds `calls`
    for (let i = 0; i < 3; i++) await hook.acquire("search");
    expect(time.sleeps).toEqual([0.5, 0.5]);
  });

  it("concurrent callers book distinct slots at the same instant", async () => {
    const { time, clock, sleep } = fakeTime();
    const hook = new RateLimitHook({ search: new Rate(1, 0.5) }, { clock, sleep });
    await Promise.all([hook.acquire("search"), hook.acquire("search"), hook.acquire("search")]);
    expect(time.sleeps).toEqual([0.5, 1.0]);
  });

  it("tool calls use the bucket of the tool's kind and model calls the bucket llm", async () => {
    const { time, clock, sleep } = fakeTime();
    const hook = new RateLimitHook({ search: new Rate(1, 1), [LLM_KIND]: new Rate(1, 4) }, { clock, sleep });
    const llm = new LLMInvocation({ messages: [] }, "p", "m", createRunContext());
    await runBefore([hook], "beforeLlm", llm);
    await runBefore([hook], "beforeTool", toolInv("search"));
    await runBefore([hook], "beforeLlm", llm);
    await runBefore([hook], "beforeTool", toolInv("search"));
    expect(time.sleeps).toEqual([4, 1]);
    expect(LLM_KIND).toBe("llm");
  });

  it("kinds without a rate never wait (and do not even return a promise)", async () => {
    const { time, clock, sleep } = fakeTime();
    const hook = new RateLimitHook({ search: new Rate(1, 1) }, { clock, sleep });
    for (let i = 0; i < 10; i++) expect(hook.beforeTool(toolInv("files"))).toBeUndefined();
    expect(time.sleeps).toEqual([]);
  });

  it("never fails: waiting is the only outcome", async () => {
    const { clock, sleep } = fakeTime();
    const hook = new RateLimitHook({ search: new Rate(1, 60) }, { clock, sleep });
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => runBefore([hook], "beforeTool", toolInv("search"))));
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
  });

  it("a cancelled wait that was the latest booking gives its slot back", async () => {
    const { time, hook } = cancellableHook();
    const controller = new AbortController();
    await hook.acquire("search"); // slot at 0
    await hook.acquire("search"); // slot at 1
    const cancelled = hook.acquire("search", controller.signal); // slot at 2, then cancelled
    controller.abort();
    await expect(cancelled).rejects.toBe(controller.signal.reason);
    await hook.acquire("search"); // gets the slot at 2 again
    expect(time.sleeps).toEqual([1, 2, 2]);
  });

  it("a cancelled wait that was not the latest booking keeps its slot taken, so no slot is handed out twice", async () => {
    const { time, hook } = cancellableHook();
    const controller = new AbortController();
    await hook.acquire("search"); // 0
    const cancelled = hook.acquire("search", controller.signal); // 1
    await hook.acquire("search"); // 2, booked after the one that will be cancelled
    controller.abort();
    await expect(cancelled).rejects.toBe(controller.signal.reason);
    await hook.acquire("search");
    expect(time.sleeps).toEqual([1, 2, 3]);
  });

  it("an already aborted run does not book at all", async () => {
    const { time, clock, sleep } = fakeTime();
    const controller = new AbortController();
    controller.abort();
    const hook = new RateLimitHook({ search: new Rate(1, 1) }, { clock, sleep });
    await expect(runBefore([hook], "beforeTool", toolInv("search", createRunContext({ signal: controller.signal })))).rejects.toBe(
      controller.signal.reason,
    );
    await hook.acquire("search");
    expect(time.sleeps).toEqual([]);
  });

  it("the default sleep honours the run's AbortSignal", async () => {
    const controller = new AbortController();
    const hook = new RateLimitHook({ slow: new Rate(1, 3600) }, { buckets: new RateBuckets() });
    await hook.acquire("slow");
    const waiting = hook.acquire("slow", controller.signal);
    controller.abort(new Error("run cancelled"));
    await expect(waiting).rejects.toThrow("run cancelled");
  });
});

describe("RateBuckets", () => {
  it("two hooks on the same table share the bucket of a kind", async () => {
    const { time, clock, sleep } = fakeTime();
    const buckets = new RateBuckets();
    const a = new RateLimitHook({ search: new Rate(1, 1) }, { clock, sleep, buckets });
    const b = new RateLimitHook({ search: new Rate(1, 1) }, { clock, sleep, buckets });
    await a.acquire("search");
    await b.acquire("search");
    await a.acquire("search");
    expect(time.sleeps).toEqual([1, 2]);
  });

  it("a second view of the same buffer sees the same buckets", () => {
    const first = new RateBuckets();
    const second = new RateBuckets(first.buffer);
    const rate = new Rate(1, 1);
    const slot = first.slotFor("search", rate);
    expect(second.slotFor("search", rate)).toBe(slot);
    expect(first.book(slot, rate, () => 0).wait).toBe(0);
    expect(second.book(slot, rate, () => 0).wait).toBe(1);
  });

  it("keys buckets by kind and rate, hashing very long kinds", () => {
    const table = new RateBuckets();
    const long = "k".repeat(500);
    const a = table.slotFor(long, new Rate(1, 1));
    expect(table.slotFor(long, new Rate(1, 1))).toBe(a);
    expect(table.slotFor(long, new Rate(2, 1))).not.toBe(a);
    expect(table.slotFor(`${long}x`, new Rate(1, 1))).not.toBe(a);
  });

  it("the process-wide table is the default and is one object", () => {
    expect(RateBuckets.shared()).toBe(RateBuckets.shared());
  });
});
