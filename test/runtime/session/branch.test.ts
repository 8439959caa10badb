import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AsyncCallbackOnSyncPathError,
  Branch,
  GateDenied,
  Message,
  MessageAdded,
  RunEnd,
  RunFailed,
  RunStart,
  Session,
  Signal,
  ToolCallAction,
  type MessageCallback,
} from "@hooklens/runtime";
import { captureLogs, type CapturedLog } from "../../helpers/captureLogs.js";

let logs: CapturedLog[];
let restore: () => void;
beforeEach(() => ({ logs, restore } = captureLogs()));
afterEach(() => restore());

const userMessage = (content: string) => new Message({ role: "user", content });

describe("Branch without a Session", () => {
  it("emit resolves to [] when the branch has no observer", async () => {
    const branch = new Branch();
    expect(branch.observer).toBeNull();
    expect(await branch.emit(new Signal({ data: 1 }))).toEqual([]);
  });

  it("authorize allows everything when the branch has no observer", async () => {
    const branch = new Branch();
    expect(await branch.authorize(new ToolCallAction({ function: "rm", branchId: branch.id }))).toBe(true);
  });

  it("has no hooks and no owning session", () => {
    const branch = new Branch();
    expect(branch.hooks).toBeNull();
    expect(branch.owningSessionId).toBeNull();
  });
});

describe("Branch.emit and authorize with an observer", () => {
  it("emit forwards to the session observer and returns its results", async () => {
    const session = new Session();
    const branch = session.newBranch();
    session.observe(Signal, { handler: () => "seen" });
    expect(await branch.emit(new Signal({ data: "x" }))).toEqual(["seen"]);
  });

  it("emit tags a signal's metadata.branchId with the branch id unless already set", async () => {
    const session = new Session();
    const branch = session.newBranch();
    const plain = new Signal({ data: 1 });
    const preset = new Signal({ data: 2, metadata: { branchId: "other" } });
    await branch.emit(plain);
    await branch.emit(preset);
    expect(plain.metadata["branchId"]).toBe(branch.id);
    expect(preset.metadata["branchId"]).toBe("other");
  });

  it("emit wraps a non-signal value and tags the wrapper with the branch id", async () => {
    const session = new Session();
    const branch = session.newBranch();
    await branch.emit({ plan: "p" });
    const [stored] = session.observer.flow.items.filter((s) => s.data !== null && typeof s.data === "object");
    expect(stored!.data).toEqual({ plan: "p" });
    expect(stored!.metadata["branchId"]).toBe(branch.id);
  });

  it("emit and emitAndLog report failures as rejections, never as throws", async () => {
    const session = new Session();
    const branch = session.newBranch();
    const frozen = new Signal({ data: 1, metadata: Object.freeze({}) });
    const failure = new Error("subscriber failed");
    session.observe(Signal, { handler: () => { throw failure; } });
    await expect(branch.emit(frozen)).rejects.toThrow(TypeError);
    await expect(branch.emit(new Signal({ data: 2 }))).rejects.toBe(failure);
    await expect(branch.emitAndLog(new Signal({ data: 3 }))).rejects.toBe(failure);
  });

  it("authorize delegates to the session observer's gate", async () => {
    const session = new Session();
    const branch = session.newBranch();
    session.gate((action) => !(action instanceof ToolCallAction && action.function === "rm"));
    expect(await branch.authorize(new ToolCallAction({ function: "ls", branchId: branch.id }))).toBe(true);
    expect(await branch.authorize(new ToolCallAction({ function: "rm", branchId: branch.id }))).toBe(false);
    expect(session.observer.byType(GateDenied).map((d) => (d.data as ToolCallAction).function)).toEqual(["rm"]);
  });

  it("authorize rejects, never throws, when an observer's own check throws", async () => {
    const failure = new Error("no check");
    const session = new Session();
    session.observer.authorize = (): Promise<boolean> => {
      throw failure;
    };
    const branch = session.newBranch();
    const answer = branch.authorize(new ToolCallAction({ function: "ls", branchId: branch.id }));
    await expect(answer).rejects.toBe(failure);
  });
});

describe("ToolCallAction", () => {
  it("carries function, arguments (default {}) and branchId, and is frozen", () => {
    const action = new ToolCallAction({ function: "read", branchId: "b1" });
    expect(action).toMatchObject({ function: "read", arguments: {}, branchId: "b1" });
    expect(Object.isFrozen(action)).toBe(true);
  });
});

describe("Branch messages and onMessageAdded callbacks", () => {
  it("Message has id, role, sender, recipient and content", () => {
    const message = new Message({ role: "assistant", content: "hi", sender: "model", recipient: "user" });
    expect(message).toMatchObject({ role: "assistant", content: "hi", sender: "model", recipient: "user" });
    expect(message.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("addMessage accepts a Message or its init object and stores in order", () => {
    const branch = new Branch();
    const first = branch.addMessage(userMessage("a"));
    const second = branch.addMessage({ role: "system", content: "b" });
    expect(second).toBeInstanceOf(Message);
    expect(branch.messages).toEqual([first, second]);
    expect(branch.hasMessage(first.id)).toBe(true);
  });

  it("starts with the branch's own sync callback that emits MessageAdded", () => {
    const branch = new Branch();
    expect(branch.onMessageAdded).toHaveLength(1);
    expect(branch.onMessageAdded[0]!.constructor.name).toBe("Function");
  });

  it("runs callbacks in list order with the added message", async () => {
    const branch = new Branch();
    const seen: string[] = [];
    branch.onMessageAdded.push((m) => void seen.push(`one:${String(m.content)}`));
    branch.onMessageAdded.push((m) => void seen.push(`two:${String(m.content)}`));
    branch.addMessage(userMessage("x"));
    await branch.addMessageAsync(userMessage("y"));
    expect(seen).toEqual(["one:x", "two:x", "one:y", "two:y"]);
  });

  it("runs callbacks on a snapshot: a callback added during a run fires from the next message on", () => {
    const branch = new Branch();
    const seen: string[] = [];
    const late: MessageCallback = (m) => void seen.push(`late:${String(m.content)}`);
    branch.onMessageAdded.push(() => {
      if (!branch.onMessageAdded.includes(late)) branch.onMessageAdded.push(late);
    });
    branch.addMessage(userMessage("first"));
    branch.addMessage(userMessage("second"));
    expect(seen).toEqual(["late:second"]);
  });

  it("collects callback errors: the others still run and a single error is rethrown as is", () => {
    const branch = new Branch();
    const boom = new Error("boom");
    const after: string[] = [];
    branch.onMessageAdded.push(() => {
      throw boom;
    });
    branch.onMessageAdded.push(() => void after.push("ran"));
    expect(() => branch.addMessage(userMessage("x"))).toThrow(boom);
    expect(after).toEqual(["ran"]);
    expect(branch.messages).toHaveLength(1);
  });

  it("raises several callback errors together as an AggregateError", async () => {
    const branch = new Branch();
    const errors = [new Error("a"), new Error("b")];
    for (const error of errors) {
      branch.onMessageAdded.push(async () => {
        throw error;
      });
    }
    const failure = await branch.addMessageAsync(userMessage("x")).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AggregateError);
    expect((failure as AggregateError).message).toBe("onMessageAdded hooks failed");
    expect((failure as AggregateError).errors).toEqual(errors);
  });

  it("sync addMessage rejects an async callback before storing the message", () => {
    const branch = new Branch();
    branch.onMessageAdded.push(async function persistLater() {});
    expect(() => branch.addMessage(userMessage("x"))).toThrow(AsyncCallbackOnSyncPathError);
    expect(() => branch.addMessage(userMessage("x"))).toThrow(/persistLater.*addMessageAsync/);
    expect(branch.messages).toEqual([]);
  });

  it("addMessageAsync awaits async callbacks in order", async () => {
    const branch = new Branch();
    const order: string[] = [];
    branch.onMessageAdded.push(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push("slow first");
    });
    branch.onMessageAdded.push(() => void order.push("sync second"));
    await branch.addMessageAsync(userMessage("x"));
    expect(order).toEqual(["slow first", "sync second"]);
  });

  it("adding a message that is already stored returns it without running callbacks again", () => {
    const branch = new Branch();
    let calls = 0;
    branch.onMessageAdded.push(() => void calls++);
    const message = branch.addMessage(userMessage("x"));
    branch.addMessage(message);
    expect(calls).toBe(1);
    expect(branch.messages).toHaveLength(1);
  });
});

describe("MessageAdded emission", () => {
  it("emits a MessageAdded carrying the message for each added message when observed", async () => {
    const session = new Session();
    const branch = session.newBranch();
    const a = branch.addMessage(userMessage("a"));
    const b = await branch.addMessageAsync(userMessage("b"));
    await branch.drainSignals();
    const added = session.observer.byType(MessageAdded);
    expect(added.map((s) => s.data)).toEqual([a, b]);
    expect(added.every((s) => s.metadata["branchId"] === branch.id)).toBe(true);
  });

  it("drains exactly the emissions started before it, whatever order they finish in", async () => {
    const session = new Session();
    const branch = session.newBranch();
    const release = new Map<unknown, () => void>();
    session.observe(MessageAdded, (signal: MessageAdded) => new Promise<void>((resolve) => release.set((signal.data as { content: unknown }).content, resolve)));
    const ticks = async (): Promise<void> => {
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    branch.addMessage(userMessage("a"));
    branch.addMessage(userMessage("b"));
    let drained = false;
    const drain = branch.drainSignals().then(() => (drained = true));
    branch.addMessage(userMessage("c")); // started after the drain was asked for
    await ticks();
    release.get("b")!();
    await ticks();
    expect(drained).toBe(false); // "a" still runs
    release.get("a")!();
    await ticks();
    expect(drained).toBe(true); // though "c" still runs: a drain never waits for later work
    release.get("c")!();
    await drain;
    await branch.drainSignals();
  });

  it("emits nothing for a branch without an observer", async () => {
    const branch = new Branch();
    branch.addMessage(userMessage("a"));
    await branch.drainSignals();
    const session = new Session();
    session.includeBranches(branch);
    await branch.drainSignals();
    expect(session.observer.byType(MessageAdded)).toEqual([]);
  });

  it("emits in the background: a failing MessageAdded subscriber never fails addMessage, and is logged", async () => {
    const session = new Session();
    const branch = session.newBranch();
    session.observe(MessageAdded, () => {
      throw new Error("subscriber broke");
    });
    expect(() => branch.addMessage(userMessage("a"))).not.toThrow();
    await branch.drainSignals();
    expect(logs.some((l) => l.level === "error" && l.msg.includes("subscriber broke"))).toBe(true);
  });
});

describe("Branch.observedRun", () => {
  it("emits RunStart, then RunEnd with the result, summed usage and duration", async () => {
    const session = new Session();
    const branch = session.newBranch();
    const result = await branch.observedRun(async () => {
      await branch.addMessageAsync({
        role: "assistant",
        content: "a",
        metadata: { modelResponse: { usage: { prompt_tokens: 10, completion_tokens: 4 } } },
      });
      await branch.addMessageAsync({
        role: "assistant",
        content: "b",
        metadata: { modelResponse: { usage: { input_tokens: 1, output_tokens: 2, total_cost_usd: 0.5 } } },
      });
      return "done";
    });
    expect(result).toBe("done");
    const kinds = session.observer.flow.items.map((s) => s.constructor.name);
    expect(kinds[0]).toBe("RunStart");
    expect(kinds.at(-1)).toBe("RunEnd");
    const [end] = session.observer.byType(RunEnd);
    expect(end).toMatchObject({ data: "done", inputTokens: 11, outputTokens: 6, totalCostUsd: 0.5, numTurns: 2 });
    expect(end!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("drains background MessageAdded signals before RunEnd", async () => {
    const session = new Session();
    const branch = session.newBranch();
    await branch.observedRun(() => void branch.addMessage(userMessage("x")));
    const kinds = session.observer.flow.items.map((s) => s.constructor.name);
    expect(kinds).toEqual(["RunStart", "MessageAdded", "RunEnd"]);
  });

  it("emits RunFailed with the error and rethrows it", async () => {
    const session = new Session();
    const branch = session.newBranch();
    const error = new Error("run broke");
    await expect(branch.observedRun(() => Promise.reject(error))).rejects.toBe(error);
    expect(session.observer.byType(RunStart)).toHaveLength(1);
    expect(session.observer.byType(RunFailed).map((s) => s.data)).toEqual([error]);
    expect(session.observer.byType(RunEnd)).toEqual([]);
  });

  it("logs and swallows a failure to emit a run signal", async () => {
    const session = new Session();
    const branch = session.newBranch();
    session.observe(RunEnd, () => {
      throw new Error("RunEnd subscriber broke");
    });
    await expect(branch.observedRun(() => 42)).resolves.toBe(42);
    expect(logs.some((l) => l.msg.includes("RunEnd subscriber broke"))).toBe(true);
  });

  it("runs plainly without run signals on a branch with no observer", async () => {
    const branch = new Branch();
    await expect(branch.observedRun(() => "ok")).resolves.toBe("ok");
  });
});

describe("Branch.emitAndLog", () => {
  it("appends the event to the branch log, then emits it", async () => {
    const session = new Session();
    const branch = session.newBranch();
    const signal = new Signal({ data: "call" });
    await branch.emitAndLog(signal);
    expect(branch.logs).toEqual([signal]);
    expect(session.observer.flow.has(signal.id)).toBe(true);
  });
});
