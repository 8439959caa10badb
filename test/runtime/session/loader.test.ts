import { describe, expect, it } from "vitest";
import {
  DEFAULT_HOOKS,
  HookPoint,
  HookSignal,
  InvalidValueError,
  SessionObserver,
  UnknownNameError,
  buildSessionBus,
  loadHooksForAgent,
  logApiMetrics,
  logToolCall,
  logToolUse,
  persistBranchProvenance,
  persistMessage,
  persistSessionEnd,
  persistSessionStart,
  registerHandler,
  registeredHandlerNames,
  resolveHandler,
} from "@hooklens/runtime";

describe("DEFAULT_HOOKS", () => {
  it("maps the four default points, in order, to the built-in persistence handlers", () => {
    expect(Object.entries(DEFAULT_HOOKS)).toEqual([
      [HookPoint.SESSION_START, [persistSessionStart]],
      [HookPoint.SESSION_END, [persistSessionEnd]],
      [HookPoint.MESSAGE_ADD, [persistMessage]],
      [HookPoint.BRANCH_CREATE, [persistBranchProvenance]],
    ]);
  });
});

describe("handler name registry", () => {
  it("is pre-seeded with the seven built-in names", () => {
    expect(resolveHandler("persistSessionStart")).toBe(persistSessionStart);
    expect(resolveHandler("persistSessionEnd")).toBe(persistSessionEnd);
    expect(resolveHandler("persistBranchProvenance")).toBe(persistBranchProvenance);
    expect(resolveHandler("persistMessage")).toBe(persistMessage);
    expect(resolveHandler("logApiMetrics")).toBe(logApiMetrics);
    expect(resolveHandler("logToolCall")).toBe(logToolCall);
    expect(resolveHandler("logToolUse")).toBe(logToolUse);
  });

  it("registerHandler makes a name resolvable, process-wide", () => {
    const handler = async () => undefined;
    registerHandler("loaderTest.audit", handler);
    expect(resolveHandler("loaderTest.audit")).toBe(handler);
  });

  it("registerHandler: the last writer of a name wins", () => {
    const first = () => 1;
    const second = () => 2;
    registerHandler("loaderTest.twice", first);
    registerHandler("loaderTest.twice", second);
    expect(resolveHandler("loaderTest.twice")).toBe(second);
  });

  it("resolveHandler raises UnknownNameError naming the miss and listing the registered names, sorted", () => {
    expect(() => resolveHandler("nope")).toThrow(UnknownNameError);
    expect(() => resolveHandler("nope")).toThrow(`Unknown hook handler 'nope'. Registered: [${registeredHandlerNames().join(", ")}]`);
    expect(registeredHandlerNames()).toEqual([...registeredHandlerNames()].sort());
  });
});

describe("loadHooksForAgent", () => {
  it("returns no overrides for null, undefined or an empty object", () => {
    expect(loadHooksForAgent(null).size).toBe(0);
    expect(loadHooksForAgent(undefined).size).toBe(0);
    expect(loadHooksForAgent({}).size).toBe(0);
  });

  it("resolves each point's names to handlers in order, without merging the defaults", () => {
    const overrides = loadHooksForAgent({ "tool.pre": ["logToolCall", "logToolUse"], "session.start": [] });
    expect([...overrides.entries()]).toEqual([
      [HookPoint.TOOL_PRE, [logToolCall, logToolUse]],
      [HookPoint.SESSION_START, []],
    ]);
  });

  it("rejects an unknown point with InvalidValueError listing the valid values", () => {
    expect(() => loadHooksForAgent({ TOOL_PRE: ["logToolCall"] })).toThrow(InvalidValueError);
    expect(() => loadHooksForAgent({ TOOL_PRE: ["logToolCall"] })).toThrow(
      `Unknown hook point 'TOOL_PRE'; valid: [${Object.values(HookPoint).sort().join(", ")}]`,
    );
  });

  it("rejects a point whose value is not a list", () => {
    const bad = { "tool.pre": "logToolCall" } as unknown as Record<string, string[]>;
    expect(() => loadHooksForAgent(bad)).toThrow(new InvalidValueError("hooks.tool.pre must be a list of handler names; got string"));
  });

  it("rejects an unknown handler name with UnknownNameError", () => {
    expect(() => loadHooksForAgent({ "tool.pre": ["missingHandler"] })).toThrow(UnknownNameError);
  });
});

describe("buildSessionBus", () => {
  it("without overrides carries the default handlers", () => {
    const bus = buildSessionBus();
    expect(bus.handlersFor(HookPoint.SESSION_START)).toEqual([persistSessionStart]);
    expect(bus.handlersFor(HookPoint.MESSAGE_ADD)).toEqual([persistMessage]);
    expect(bus.handlersFor(HookPoint.TOOL_PRE)).toEqual([]);
  });

  it("an override for a default point replaces its whole default list", () => {
    const bus = buildSessionBus({ "session.start": ["logToolCall"] });
    expect(bus.handlersFor(HookPoint.SESSION_START)).toEqual([logToolCall]);
    expect(bus.handlersFor(HookPoint.SESSION_END)).toEqual([persistSessionEnd]);
  });

  it("an empty override list disables that default", () => {
    const bus = buildSessionBus({ "message.add": [] });
    expect(bus.handlersFor(HookPoint.MESSAGE_ADD)).toEqual([]);
  });

  it("overrides for non-default points are added to the fresh bus", () => {
    const bus = buildSessionBus({ "tool.pre": ["logToolCall"], "api.post_call": ["logApiMetrics"] });
    expect(bus.handlersFor(HookPoint.TOOL_PRE)).toEqual([logToolCall]);
    expect(bus.handlersFor(HookPoint.API_POST_CALL)).toEqual([logApiMetrics]);
  });

  it("returns a new bus per call: handler chains are not shared", () => {
    const first = buildSessionBus();
    const second = buildSessionBus();
    expect(first).not.toBe(second);
    first.on(HookPoint.TOOL_PRE, () => undefined);
    expect(second.handlersFor(HookPoint.TOOL_PRE)).toEqual([]);
  });

  it("binds the given observer", async () => {
    const observer = new SessionObserver();
    const bus = buildSessionBus(null, { observer });
    expect(bus.observer).toBe(observer);
    await bus.emit(HookPoint.TOOL_POST, { toolName: "t", callId: "c", resultSummary: "", duration: 0 });
    expect(observer.byType(HookSignal)).toHaveLength(1);
  });

  it("fails like loadHooksForAgent on a bad declaration", () => {
    expect(() => buildSessionBus({ "no.such.point": [] })).toThrow(InvalidValueError);
  });
});
