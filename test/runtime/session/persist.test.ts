import { describe, expect, it } from "vitest";
import {
  AsyncCallbackOnSyncPathError,
  Branch,
  HookPoint,
  HookSignal,
  Message,
  MessageAdded,
  Session,
  persistMessage,
  routeMessagePersistence,
  unrouteMessagePersistence,
} from "@hooklens/runtime";

const collect = () => {
  const seen: Message[] = [];
  return { seen, onMessage: async (message: Message) => void seen.push(message) };
};

describe("routeMessagePersistence", () => {
  it("creates the session bus and attaches it to the branch", () => {
    const session = new Session();
    const branch = session.defaultBranch!;
    expect(branch.hooks).toBeNull();
    routeMessagePersistence(session, branch, async () => undefined);
    expect(branch.hooks).toBe(session.hooks);
  });

  it("removes the default persistMessage handler from the shared bus", () => {
    const session = new Session();
    expect(session.hooks.handlersFor(HookPoint.MESSAGE_ADD)).toEqual([persistMessage]);
    const handler = routeMessagePersistence(session, session.defaultBranch!, async () => undefined);
    expect(session.hooks.handlersFor(HookPoint.MESSAGE_ADD)).toEqual([handler]);
  });

  it("installs branch.persistViaBus on the message callbacks once, however often it is routed", () => {
    const session = new Session();
    const branch = session.defaultBranch!;
    routeMessagePersistence(session, branch, async () => undefined);
    routeMessagePersistence(session, branch, async () => undefined);
    expect(branch.onMessageAdded.filter((cb) => cb === branch.persistViaBus)).toHaveLength(1);
  });

  it("delivers each message added to the branch to onMessage", async () => {
    const session = new Session();
    const branch = session.defaultBranch!;
    const { seen, onMessage } = collect();
    routeMessagePersistence(session, branch, onMessage);
    const message = await branch.addMessageAsync({ role: "user", content: "hello" });
    expect(seen).toEqual([message]);
  });

  it("filters by branch id on the shared bus: each branch's callback sees only its own messages", async () => {
    const session = new Session();
    const [a, b] = [session.newBranch(), session.newBranch()];
    const forA = collect();
    const forB = collect();
    routeMessagePersistence(session, a, forA.onMessage);
    routeMessagePersistence(session, b, forB.onMessage);
    const fromA = await a.addMessageAsync({ role: "user", content: "a" });
    const fromB = await b.addMessageAsync({ role: "user", content: "b" });
    expect(forA.seen).toEqual([fromA]);
    expect(forB.seen).toEqual([fromB]);
  });

  it("passes an emission without a branch id to every routed callback", async () => {
    const session = new Session();
    const { seen, onMessage } = collect();
    routeMessagePersistence(session, session.defaultBranch!, onMessage);
    const message = new Message({ role: "user", content: "no branch" });
    await session.hooks.emit(HookPoint.MESSAGE_ADD, { message } as never);
    expect(seen).toEqual([message]);
  });

  it("after routing the sync addMessage path refuses to run (the callback is async)", () => {
    const session = new Session();
    const branch = session.defaultBranch!;
    routeMessagePersistence(session, branch, async () => undefined);
    expect(() => branch.addMessage({ role: "user", content: "x" })).toThrow(AsyncCallbackOnSyncPathError);
    expect(branch.messages).toEqual([]);
  });

  it("records MessageAdded on the observer and no HookSignal for MESSAGE_ADD", async () => {
    const session = new Session();
    const branch = session.defaultBranch!;
    routeMessagePersistence(session, branch, async () => undefined);
    await branch.addMessageAsync({ role: "user", content: "x" });
    await branch.drainSignals();
    expect(session.observer.byType(MessageAdded)).toHaveLength(1);
    expect(session.observer.byType(HookSignal)).toEqual([]);
  });
});

describe("unrouteMessagePersistence", () => {
  it("full teardown: removes the handler from the bus and persistViaBus from the callbacks, in place", async () => {
    const session = new Session();
    const branch = session.defaultBranch!;
    const { seen, onMessage } = collect();
    const handler = routeMessagePersistence(session, branch, onMessage);
    const callbacks = branch.onMessageAdded;
    unrouteMessagePersistence(branch, handler);
    expect(session.hooks.handlersFor(HookPoint.MESSAGE_ADD)).toEqual([]);
    expect(branch.onMessageAdded).toBe(callbacks);
    expect(callbacks).not.toContain(branch.persistViaBus);
    branch.addMessage({ role: "user", content: "sync works again" });
    await branch.addMessageAsync({ role: "user", content: "not delivered" });
    expect(seen).toEqual([]);
  });

  it("does not put the default persistMessage back", () => {
    const session = new Session();
    const handler = routeMessagePersistence(session, session.defaultBranch!, async () => undefined);
    unrouteMessagePersistence(session.defaultBranch!, handler);
    expect(session.hooks.handlersFor(HookPoint.MESSAGE_ADD)).not.toContain(persistMessage);
  });

  it("removes every persistViaBus callback, including another branch's, by what it is rather than identity", () => {
    const branch = new Branch();
    const other = new Branch();
    branch.onMessageAdded.push(other.persistViaBus, branch.persistViaBus);
    unrouteMessagePersistence(branch, async () => undefined);
    expect(branch.onMessageAdded).toHaveLength(1);
  });

  it("only cleans the callbacks of a holder that has no bus", () => {
    const branch = new Branch();
    branch.onMessageAdded.push(branch.persistViaBus);
    expect(() => unrouteMessagePersistence(branch, async () => undefined)).not.toThrow();
    expect(branch.onMessageAdded).not.toContain(branch.persistViaBus);
  });
});
