import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  EventStatus,
  HookedEvent,
  HookLog,
  HookPhaseError,
  HookRegistry,
  globalHookLog,
  type HookAttachOptions,
  type PhaseHookHandler,
} from "@hooklens/runtime";
import { abortError, collect, never } from "./support.js";

/** A hooked event whose core records that it ran and returns, throws or streams as told. */
class Core extends HookedEvent {
  readonly trace: string[];
  constructor(
    trace: string[],
    private readonly core: { result?: unknown; error?: Error; chunks?: unknown[]; failAfter?: number } = { result: "core result" },
  ) {
    super();
    this.trace = trace;
  }
  protected override async _coreInvoke(): Promise<unknown> {
    this.trace.push("core");
    if (this.core.error) throw this.core.error;
    return this.core.result;
  }
  protected override async *_coreStream(): AsyncGenerator<unknown, void, undefined> {
    this.trace.push("core-stream");
    const chunks = this.core.chunks ?? [];
    for (let i = 0; i < chunks.length; i++) {
      if (i === this.core.failAfter) throw this.core.error;
      this.trace.push(`chunk ${String(chunks[i])}`);
      yield chunks[i];
    }
  }
}

interface Setup {
  pre?: PhaseHookHandler;
  post?: PhaseHookHandler;
  preOptions?: HookAttachOptions;
  postOptions?: HookAttachOptions;
  core?: ConstructorParameters<typeof Core>[1];
}

function build(setup: Setup): { event: Core; trace: string[] } {
  const trace: string[] = [];
  const wrap =
    (name: string, fn: PhaseHookHandler): PhaseHookHandler =>
    (event, params) => {
      trace.push(name);
      return fn(event, params);
    };
  const registry = new HookRegistry({
    hooks: { ...(setup.pre && { pre_invocation: wrap("pre", setup.pre) }), ...(setup.post && { post_invocation: wrap("post", setup.post) }) },
  });
  const event = new Core(trace, setup.core);
  if (setup.pre) event.createPreInvokeHook(registry, setup.preOptions);
  if (setup.post) event.createPostInvokeHook(registry, setup.postOptions);
  return { event, trace };
}

const pass: PhaseHookHandler = () => "fine";
const raise =
  (message: string): PhaseHookHandler =>
  () => {
    throw new Error(message);
  };

function loggedTypes(): string[] {
  return globalHookLog.entries().map((entry) => `${entry.hookType}:${entry.status}`);
}

beforeEach(() => globalHookLog.clear());
afterEach(() => globalHookLog.clear());

describe("HookedEvent without hooks", () => {
  it("runs the core and ends COMPLETED with its result", async () => {
    const { event, trace } = build({});
    await event.invoke();
    expect(trace).toEqual(["core"]);
    expect(event.status).toBe(EventStatus.COMPLETED);
    expect(event.response).toBe("core result");
    expect(event.preInvokeHookEvent).toBeNull();
    expect(event.postInvokeHookEvent).toBeNull();
  });
});

describe("HookedEvent pre-invoke hook", () => {
  it("runs before the core and is logged when it passes", async () => {
    const { event, trace } = build({ pre: pass });
    await event.invoke();
    expect(trace).toEqual(["pre", "core"]);
    expect(event.status).toBe(EventStatus.COMPLETED);
    expect(loggedTypes()).toEqual(["pre_invocation:completed"]);
  });

  it("a raising pre hook with exit false still blocks the core: FAILED with 'Pre-invoke hook cancelled: …', not logged", async () => {
    const { event, trace } = build({ pre: raise("not allowed"), preOptions: { exitHook: false } });
    await event.invoke();
    expect(trace).toEqual(["pre"]);
    expect(event.status).toBe(EventStatus.FAILED);
    expect(event.execution.error).toBeInstanceOf(HookPhaseError);
    expect((event.execution.error as Error).message).toBe("Pre-invoke hook cancelled: not allowed");
    expect(loggedTypes()).toEqual([]);
  });

  it("a raising pre hook with exit true blocks the core with the same message", async () => {
    const { event, trace } = build({ pre: raise("not allowed"), preOptions: { exitHook: true } });
    await event.invoke();
    expect(trace).toEqual(["pre"]);
    expect((event.execution.error as Error).message).toBe("Pre-invoke hook cancelled: not allowed");
  });

  it("a pre hook that times out blocks the core: 'Pre-invoke hook failed: …'", async () => {
    const { event, trace } = build({ pre: () => never(), preOptions: { hookTimeout: 0.02 } });
    await event.invoke();
    expect(trace).toEqual(["pre"]);
    expect(event.status).toBe(EventStatus.FAILED);
    expect((event.execution.error as Error).message).toMatch(/^Pre-invoke hook failed: Hook did not finish within 0.02 s/);
  });

  it("a pre hook that cancels cancels the event: CANCELLED and rethrown", async () => {
    const { event, trace } = build({
      pre: () => {
        throw abortError("pre cancelled");
      },
    });
    await expect(event.invoke()).rejects.toThrow("pre cancelled");
    expect(trace).toEqual(["pre"]);
    expect(event.status).toBe(EventStatus.CANCELLED);
  });

  it("trap: a pre hook that returns an Error passes, so the core runs", async () => {
    const { event, trace } = build({ pre: () => new Error("meant to block") });
    await event.invoke();
    expect(trace).toEqual(["pre", "core"]);
    expect(event.status).toBe(EventStatus.COMPLETED);
  });

  it("attaches with exit false, a 30 s timeout and empty params by default", () => {
    const { event } = build({ pre: pass });
    const hook = event.preInvokeHookEvent!;
    expect([hook.exit, hook.timeout, hook.params]).toEqual([false, 30, {}]);
    expect(hook.eventLike).toBe(event);
  });
});

describe("HookedEvent post-invoke hook", () => {
  it("runs after the core and is logged", async () => {
    const { event, trace } = build({ post: pass });
    await event.invoke();
    expect(trace).toEqual(["core", "post"]);
    expect(event.status).toBe(EventStatus.COMPLETED);
    expect(loggedTypes()).toEqual(["post_invocation:completed"]);
  });

  it("runs even when the core fails, and the event ends FAILED with the core error", async () => {
    const coreError = new Error("provider down");
    const { event, trace } = build({ post: pass, core: { error: coreError } });
    await event.invoke();
    expect(trace).toEqual(["core", "post"]);
    expect(event.status).toBe(EventStatus.FAILED);
    expect(event.execution.error).toBe(coreError);
  });

  it("when both the core and the post hook fail, the core error wins", async () => {
    const coreError = new Error("provider down");
    const { event } = build({ post: raise("post broke"), postOptions: { exitHook: true }, core: { error: coreError } });
    await event.invoke();
    expect(event.execution.error).toBe(coreError);
  });

  it("a raising post hook with exit false is ABORTED and logged, and the core result survives", async () => {
    const { event } = build({ post: raise("post broke"), postOptions: { exitHook: false } });
    await event.invoke();
    expect(event.status).toBe(EventStatus.COMPLETED);
    expect(event.response).toBe("core result");
    expect(event.postInvokeHookEvent!.status).toBe(EventStatus.ABORTED);
    expect(loggedTypes()).toEqual(["post_invocation:aborted"]);
  });

  it("a raising post hook with exit true fails the event with the handler's own error, unlogged", async () => {
    const { event } = build({ post: raise("post broke"), postOptions: { exitHook: true } });
    await event.invoke();
    expect(event.status).toBe(EventStatus.FAILED);
    expect(event.execution.error).toBe(event.postInvokeHookEvent!.exitCause);
    expect((event.execution.error as Error).message).toBe("post broke");
    expect(loggedTypes()).toEqual([]);
  });

  it("a post hook that times out fails a successful event with 'Post-invoke hook failed: …' and is logged", async () => {
    const { event } = build({ post: () => never(), postOptions: { hookTimeout: 0.02 } });
    await event.invoke();
    expect(event.status).toBe(EventStatus.FAILED);
    expect((event.execution.error as Error).message).toMatch(/^Post-invoke hook failed: /);
    expect(loggedTypes()).toEqual(["post_invocation:failed"]);
  });

  it("a post hook that times out after a failed core leaves the core error", async () => {
    const coreError = new Error("provider down");
    const { event } = build({ post: () => never(), postOptions: { hookTimeout: 0.02 }, core: { error: coreError } });
    await event.invoke();
    expect(event.execution.error).toBe(coreError);
  });

  it("a post hook that cancels cancels a successful event", async () => {
    const { event } = build({
      post: () => {
        throw abortError("post cancelled");
      },
    });
    await expect(event.invoke()).rejects.toThrow("post cancelled");
    expect(event.status).toBe(EventStatus.CANCELLED);
  });

  it("a post hook that cancels after a failed core is swallowed: the core error stands", async () => {
    const coreError = new Error("provider down");
    const { event } = build({
      post: () => {
        throw abortError("post cancelled");
      },
      core: { error: coreError },
    });
    await event.invoke();
    expect(event.status).toBe(EventStatus.FAILED);
    expect(event.execution.error).toBe(coreError);
  });
});

describe("HookedEvent streaming", () => {
  it("runs pre, then the chunks, then post after the last chunk", async () => {
    const { event, trace } = build({ pre: pass, post: pass, core: { chunks: [1, 2] } });
    expect(await collect(event.stream())).toEqual([1, 2]);
    expect(trace).toEqual(["pre", "core-stream", "chunk 1", "chunk 2", "post"]);
    expect(event.status).toBe(EventStatus.COMPLETED);
    expect(loggedTypes()).toEqual(["pre_invocation:completed", "post_invocation:completed"]);
  });

  it("a failing pre hook stops the stream before the core starts", async () => {
    const { event, trace } = build({ pre: raise("no streaming"), core: { chunks: [1] } });
    expect(await collect(event.stream())).toEqual([]);
    expect(trace).toEqual(["pre"]);
    expect(event.status).toBe(EventStatus.FAILED);
    expect((event.execution.error as Error).message).toBe("Pre-invoke hook cancelled: no streaming");
  });

  it("a core error mid-stream skips the post hook and ends FAILED, keeping delivered chunks", async () => {
    const coreError = new Error("stream broke");
    const { event, trace } = build({ post: pass, core: { chunks: [1, 2, 3], failAfter: 1, error: coreError } });
    expect(await collect(event.stream())).toEqual([1]);
    expect(trace).toEqual(["core-stream", "chunk 1"]);
    expect(event.status).toBe(EventStatus.FAILED);
    expect(event.execution.error).toBe(coreError);
  });

  it("a post-stream failure never fails the stream, even with exit true; it is logged", async () => {
    const { event } = build({ post: raise("late"), postOptions: { exitHook: true }, core: { chunks: ["a"] } });
    expect(await collect(event.stream())).toEqual(["a"]);
    expect(event.status).toBe(EventStatus.COMPLETED);
    expect(loggedTypes()).toEqual(["post_invocation:aborted"]);
  });

  it("a post-stream hook that times out is logged as failed and the stream still completes", async () => {
    const { event } = build({ post: () => never(), postOptions: { hookTimeout: 0.02 }, core: { chunks: ["a"] } });
    expect(await collect(event.stream())).toEqual(["a"]);
    expect(event.status).toBe(EventStatus.COMPLETED);
    expect(loggedTypes()).toEqual(["post_invocation:failed"]);
  });

  it("a post-stream hook that cancels cancels the stream", async () => {
    const { event } = build({
      post: () => {
        throw abortError("post cancelled");
      },
      core: { chunks: ["a"] },
    });
    await expect(collect(event.stream())).rejects.toThrow("post cancelled");
    expect(event.status).toBe(EventStatus.CANCELLED);
  });
});

describe("HookLog", () => {
  it("keeps at most 100 entries by default, dropping the oldest", async () => {
    const log = new HookLog();
    const events = [];
    for (let i = 0; i < 105; i++) {
      const { event } = build({ pre: () => i });
      await event.invoke();
      events.push(event.preInvokeHookEvent!);
      log.log(event.preInvokeHookEvent!);
    }
    expect(log.capacity).toBe(100);
    expect(log.size).toBe(100);
    expect(log.entries()[0]!.id).toBe(events[5]!.id);
    expect(log.entries()[99]!.id).toBe(events[104]!.id);
  });

  it("hands each full buffer to its sink and starts empty", async () => {
    const batches: number[] = [];
    const log = new HookLog({ capacity: 3, sink: (entries) => batches.push(entries.length) });
    const { event } = build({ pre: pass });
    await event.invoke();
    for (let i = 0; i < 7; i++) log.log(event.preInvokeHookEvent!);
    expect(batches).toEqual([3, 3]);
    expect(log.size).toBe(1);
    expect(log.flush()).toHaveLength(1);
    expect(batches).toEqual([3, 3, 1]);
  });
});
