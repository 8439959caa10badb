import { describe, expect, it } from "vitest";
import {
  Branch,
  DEFAULT_HOOKS,
  HookPoint,
  HookSignal,
  InvalidValueError,
  Session,
  SessionObserver,
  Signal,
  ToolCallAction,
} from "@hooklens/runtime";

describe("Session lazy observer and hooks", () => {
  it("observer returns the same SessionObserver on every access, owned by the session", () => {
    const session = new Session();
    expect(session.observer).toBeInstanceOf(SessionObserver);
    expect(session.observer).toBe(session.observer);
    expect(session.observer.session).toBe(session);
    expect(session.observer.sessionId).toBe(session.id);
  });

  it("hooks returns the same HookBus on every access, bound to the observer", async () => {
    const session = new Session();
    const bus = session.hooks;
    expect(session.hooks).toBe(bus);
    expect(bus.observer).toBe(session.observer);
    await bus.emit(HookPoint.TOOL_POST, { toolName: "t", callId: "c", resultSummary: "", duration: 0 });
    expect(session.observer.byType(HookSignal)).toHaveLength(1);
  });

  it("hooks builds the bus with the default handlers only", () => {
    const bus = new Session().hooks;
    for (const [point, handlers] of Object.entries(DEFAULT_HOOKS)) {
      expect(bus.handlersFor(point as HookPoint)).toEqual(handlers);
    }
    expect(bus.handlersFor(HookPoint.TOOL_PRE)).toEqual([]);
  });

  it("construction includes a default branch, which creates the observer", () => {
    const session = new Session();
    expect(session.defaultBranch).toBeInstanceOf(Branch);
    expect(session.branches).toEqual([session.defaultBranch]);
    expect(session.defaultBranch!.observer).toBe(session.observer);
  });
});

describe("Session.includeBranches", () => {
  it("sets the owner, user and observer of each included branch", () => {
    const session = new Session();
    const branch = new Branch();
    session.includeBranches([branch]);
    expect(session.getBranch(branch.id)).toBe(branch);
    expect(branch.owningSessionId).toBe(session.id);
    expect(branch.user).toBe(session.id);
    expect(branch.observer).toBe(session.observer);
  });

  it("refuses a branch owned by another session with a clear error and changes nothing", () => {
    const first = new Session();
    const second = new Session();
    const owned = first.newBranch();
    const free = new Branch();
    expect(() => second.includeBranches([free, owned])).toThrow(InvalidValueError);
    expect(() => second.includeBranches([free, owned])).toThrow(
      `Branch ${owned.id} is already owned by session ${first.id}; call removeBranch() on that session first`,
    );
    expect(free.observer).toBeNull();
    expect(second.getBranch(free.id)).toBeUndefined();
    expect(owned.observer).toBe(first.observer);
  });

  it("including a branch again in the same session is idempotent", () => {
    const session = new Session();
    const branch = session.newBranch();
    session.includeBranches(branch);
    expect(session.branches.filter((b) => b === branch)).toHaveLength(1);
  });

  it("gives branches included after the bus exists that bus", () => {
    const session = new Session();
    const bus = session.hooks;
    const branch = session.newBranch();
    expect(branch.hooks).toBe(bus);
  });

  it("no backfill: branches included before the bus was created keep hooks null", () => {
    const session = new Session();
    const early = session.newBranch();
    const bus = session.hooks;
    expect(early.observer).toBe(session.observer);
    expect(early.hooks).toBeNull();
    expect(session.defaultBranch!.hooks).toBeNull();
    expect(bus).toBeDefined();
  });

  it("including an early branch again after the bus exists attaches the bus", () => {
    const session = new Session();
    const early = session.newBranch();
    session.hooks;
    session.includeBranches(early);
    expect(early.hooks).toBe(session.hooks);
  });
});

describe("Session.removeBranch", () => {
  it("clears the branch's owner, observer, bus and user but keeps its messages", () => {
    const session = new Session();
    session.hooks;
    const branch = session.newBranch();
    branch.addMessage({ role: "user", content: "kept" });
    expect(session.removeBranch(branch)).toBe(true);
    expect(branch.owningSessionId).toBeNull();
    expect(branch.observer).toBeNull();
    expect(branch.hooks).toBeNull();
    expect(branch.user).toBeNull();
    expect(branch.messages.map((m) => m.content)).toEqual(["kept"]);
    expect(session.getBranch(branch.id)).toBeUndefined();
  });

  it("keeps a user that is not this session", () => {
    const session = new Session();
    const branch = session.newBranch();
    branch.user = "someone";
    session.removeBranch(branch.id);
    expect(branch.user).toBe("someone");
  });

  it("lets another session include the removed branch", () => {
    const first = new Session();
    const second = new Session();
    const branch = first.newBranch();
    first.removeBranch(branch);
    second.includeBranches(branch);
    expect(branch.owningSessionId).toBe(second.id);
  });

  it("returns false for a branch the session does not own", () => {
    expect(new Session().removeBranch(new Branch())).toBe(false);
  });

  it("makes the next branch the default when the default is removed", () => {
    const session = new Session();
    const original = session.defaultBranch!;
    const next = session.newBranch();
    session.removeBranch(original);
    expect(session.defaultBranch).toBe(next);
  });
});

describe("Session.newBranch", () => {
  it("constructs a branch with the given options and includes it", () => {
    const session = new Session();
    const branch = session.newBranch({ name: "research" });
    expect(branch.name).toBe("research");
    expect(session.getBranch(branch.id)).toBe(branch);
    expect(branch.observer).toBe(session.observer);
  });
});

describe("Session delegates to its observer", () => {
  it("observe, emit and route forward to the observer", async () => {
    const session = new Session();
    const seen: unknown[] = [];
    session.observe(Signal, (signal, context) => void seen.push([signal.data, context]));
    expect(session.route((p) => p === "x", { into: "xs" })).toBe(session.observer);
    await session.emit("x");
    expect(seen).toEqual([["x", session]]);
    expect(session.observer.stream("xs")).toHaveLength(1);
  });

  it("gate and authorize forward to the observer", async () => {
    const session = new Session();
    expect(session.gate((action) => (action as ToolCallAction).function !== "rm")).toBe(session.observer);
    expect(await session.authorize(new ToolCallAction({ function: "rm" }))).toBe(false);
    expect(await session.observer.authorize(new ToolCallAction({ function: "ls" }))).toBe(true);
  });
});
