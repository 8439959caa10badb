import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  InvalidValueError,
  HookPoint,
  InMemorySessionStateStore,
  Message,
  Session,
  StatusReasonCode,
  logApiMetrics,
  logToolCall,
  logToolUse,
  persistBranchProvenance,
  persistMessage,
  persistSessionEnd,
  persistSessionStart,
  setSessionStateStore,
  type SessionStateStore,
  type SessionUpdate,
} from "@hooklens/runtime";
import { captureLogs, type CapturedLog } from "../../helpers/captureLogs.js";

/** The in-memory store, remembering each updateSession call. */
class RecordingStore extends InMemorySessionStateStore {
  readonly updates: SessionUpdate[] = [];
  override updateSession(sessionId: string, update: SessionUpdate): void {
    this.updates.push(update);
    super.updateSession(sessionId, update);
  }
}

let store: RecordingStore;
let previous: SessionStateStore;
let logs: CapturedLog[];
let restoreLogs: () => void;
beforeEach(() => {
  store = new RecordingStore();
  previous = setSessionStateStore(store);
  ({ logs, restore: restoreLogs } = captureLogs());
});
afterEach(() => {
  setSessionStateStore(previous);
  restoreLogs();
});

describe("persistSessionStart", () => {
  it("marks a pending session running with STARTED_OK, its provenance and startedAt", async () => {
    store.createSession("s1");
    await persistSessionStart({ sessionId: "s1", model: "gpt", provider: "openai", agentName: "coder", invocationId: "inv" });
    expect(store.sessions.get("s1")).toMatchObject({
      status: "running",
      statusReasonCode: StatusReasonCode.STARTED_OK,
      model: "gpt",
      provider: "openai",
      agentName: "coder",
      invocationId: "inv",
      effort: null,
    });
    expect(store.sessions.get("s1")!.startedAt).toBeGreaterThan(0);
  });

  it("does nothing when the session row is missing", async () => {
    await persistSessionStart({ sessionId: "missing" });
    expect(store.sessions.size).toBe(0);
    expect(store.updates).toEqual([]);
  });

  it("is idempotent: a session already STARTED_OK is not written again", async () => {
    store.createSession("s1");
    await persistSessionStart({ sessionId: "s1", model: "first" });
    await persistSessionStart({ sessionId: "s1", model: "second" });
    expect(store.updates).toHaveLength(1);
    expect(store.sessions.get("s1")!.model).toBe("first");
  });

  it("skips a session whose status is terminal", async () => {
    store.createSession("s1", { status: "completed" });
    await persistSessionStart({ sessionId: "s1" });
    expect(store.updates).toEqual([]);
  });

  it("requires sessionId", async () => {
    await expect(persistSessionStart({} as never)).rejects.toThrow(new InvalidValueError("persistSessionStart() missing required payload field 'sessionId'"));
  });
});

describe("persistSessionEnd", () => {
  it("completes a running session: status, COMPLETED_OK, endedAt and the usage fields given", async () => {
    store.createSession("s1", { status: "running" });
    await persistSessionEnd({ sessionId: "s1", inputTokens: 10, outputTokens: 5, totalCostUsd: 0.01 });
    expect(store.sessions.get("s1")).toMatchObject({
      status: "completed",
      statusReasonCode: StatusReasonCode.COMPLETED_OK,
      inputTokens: 10,
      outputTokens: 5,
      totalCostUsd: 0.01,
      numTurns: null,
    });
    expect(store.sessions.get("s1")!.endedAt).toBeGreaterThan(0);
  });

  it("maps each status to its reason code, and any other status to FAILED_EXCEPTION", async () => {
    const expected: Record<string, StatusReasonCode> = {
      completed: StatusReasonCode.COMPLETED_OK,
      failed: StatusReasonCode.FAILED_EXCEPTION,
      timed_out: StatusReasonCode.TIMED_OUT_DEADLINE,
      aborted: StatusReasonCode.ABORTED_USER,
      cancelled: StatusReasonCode.CANCELLED_SYSTEM,
      exploded: StatusReasonCode.FAILED_EXCEPTION,
    };
    for (const [status, code] of Object.entries(expected)) {
      store.createSession(status, { status: "running" });
      await persistSessionEnd({ sessionId: status, status });
      expect([status, store.sessions.get(status)!.statusReasonCode]).toEqual([status, code]);
    }
  });

  it("merges error into the existing nodeMetadata", async () => {
    store.createSession("s1", { status: "running", nodeMetadata: { host: "ci" } });
    await persistSessionEnd({ sessionId: "s1", status: "failed", error: "boom" });
    expect(store.sessions.get("s1")!.nodeMetadata).toEqual({ host: "ci", error: "boom" });
  });

  it("redacts the error it merges: an Error's message, a secret key's value", async () => {
    store.createSession("s1", { status: "running" });
    await persistSessionEnd({ sessionId: "s1", status: "failed", error: new Error("upstream said Bearer tok-9f8e7d6c5b4a") });
    expect(store.sessions.get("s1")!.nodeMetadata["error"]).toEqual({ name: "Error", message: "upstream said Bearer [redacted]" });
    store.createSession("s2", { status: "running" });
    await persistSessionEnd({ sessionId: "s2", status: "failed", error: { code: 401, apiKey: "k-123456789" } });
    expect(store.sessions.get("s2")!.nodeMetadata["error"]).toEqual({ code: 401, apiKey: "[redacted]" });
  });

  it("on an already terminal session writes only the usage fields", async () => {
    store.createSession("s1", { status: "failed", statusReasonCode: StatusReasonCode.FAILED_EXCEPTION, endedAt: 1 });
    await persistSessionEnd({ sessionId: "s1", status: "completed", error: "late", numTurns: 3 });
    expect(store.updates).toEqual([{ numTurns: 3 }]);
    expect(store.sessions.get("s1")).toMatchObject({ status: "failed", endedAt: 1, nodeMetadata: {}, numTurns: 3 });
  });

  it("on an already terminal session with no usage writes nothing", async () => {
    store.createSession("s1", { status: "completed" });
    await persistSessionEnd({ sessionId: "s1" });
    expect(store.updates).toEqual([]);
  });

  it("does nothing when the session row is missing", async () => {
    await persistSessionEnd({ sessionId: "missing", inputTokens: 1 });
    expect(store.updates).toEqual([]);
  });
});

describe("persistBranchProvenance", () => {
  it("records the branch's model, provider and agent", async () => {
    await persistBranchProvenance({ branchId: "b1", model: "m", provider: "p", agentName: "a" });
    expect(store.branches.get("b1")).toEqual({ id: "b1", model: "m", provider: "p", agentName: "a", systemMsgId: null });
  });

  it("redacts the text it records (a provider given as a URL with credentials)", async () => {
    await persistBranchProvenance({ branchId: "b1", provider: "https://svc:hunter22@llm.internal/v1" });
    expect(store.branches.get("b1")!.provider).toBe("https://svc:[redacted]@llm.internal/v1");
  });
});

describe("persistMessage", () => {
  it("stores the message and touches the session's activity", async () => {
    store.createSession("s1");
    await persistMessage({ sessionId: "s1", message: { id: "m1", role: "user", content: "hi" } });
    expect(store.messages.get("m1")).toEqual({ id: "m1", role: "user", content: "hi" });
    expect(store.sessions.get("s1")!.lastActivityAt).toBeGreaterThan(0);
  });

  it("stores the message redacted: content, metadata and sender; id and role kept", async () => {
    const message = new Message({
      id: "m-sk-0123456789abcdefghij",
      role: "user",
      sender: "https://ada:hunter22@example.com",
      content: "my key is sk-0123456789abcdefghij",
      metadata: { password: "hunter22", turn: 3 },
    });
    await persistMessage({ sessionId: "s", message });
    expect(store.messages.get(message.id)).toMatchObject({
      id: "m-sk-0123456789abcdefghij",
      role: "user",
      sender: "https://ada:[redacted]@example.com",
      content: "my key is [redacted]",
      metadata: { password: "[redacted]", turn: 3 },
    });
    expect(message.content).toBe("my key is sk-0123456789abcdefghij"); // the caller's message is left as it was
  });

  it("appends the message id to the branch progression, then to the session progression", async () => {
    await persistMessage({ sessionId: "s", message: { id: "m1" }, branchProgressionId: "bp", sessionProgressionId: "sp" });
    expect(store.progressions.get("bp")).toEqual(["m1"]);
    expect(store.progressions.get("sp")).toEqual(["m1"]);
  });

  it("accepts the legacy progressionId for the branch progression", async () => {
    await persistMessage({ sessionId: "s", message: { id: "m1" }, progressionId: "legacy" });
    expect(store.progressions.get("legacy")).toEqual(["m1"]);
  });

  it("records a system message as its branch's system message", async () => {
    await persistMessage({ sessionId: "s", branchId: "b1", message: new Message({ id: "sys", role: "system", content: "rules" }) });
    expect(store.branches.get("b1")!.systemMsgId).toBe("sys");
    expect(store.messages.get("sys")).toMatchObject({ id: "sys", role: "system", content: "rules" });
  });

  it("throws for a payload without sessionId before storing anything", async () => {
    await expect(persistMessage({ branchId: "b", message: { id: "m1" } } as never)).rejects.toThrow(
      new InvalidValueError("persistMessage() missing required payload field 'sessionId'"),
    );
    expect(store.messages.size).toBe(0);
  });

  it("payload mismatch: as a default MESSAGE_ADD handler it throws on a Branch's emission, which the bus logs and swallows", async () => {
    const session = new Session();
    session.hooks;
    const branch = session.newBranch();
    expect(branch.hooks!.handlersFor(HookPoint.MESSAGE_ADD)).toEqual([persistMessage]);
    branch.onMessageAdded.push(branch.persistViaBus);
    await expect(branch.addMessageAsync({ role: "user", content: "hi" })).resolves.toBeInstanceOf(Message);
    expect(store.messages.size).toBe(0);
    expect(logs.some((l) => l.level === "error" && l.msg.includes("missing required payload field 'sessionId'"))).toBe(true);
  });
});

describe("logging handlers", () => {
  it("logApiMetrics logs model, provider, total tokens and latency", async () => {
    await logApiMetrics({ model: "m", provider: "p", tokens: { total: 42 }, latencyMs: 12 });
    await logApiMetrics({ model: "m", provider: "p", latencyMs: 12 });
    expect(logs.map((l) => [l.level, l.msg])).toEqual([
      ["info", "api.post_call model=m provider=p tokens=42 latency_ms=12"],
      ["info", "api.post_call model=m provider=p latency_ms=12"],
    ]);
  });

  it("logToolCall logs the tool, action and argument names, never argument values", async () => {
    await logToolCall({ toolName: "bash", action: "run", args: { command: "rm -rf /", cwd: "/" } });
    expect(logs[0]!.msg).toBe('tool.pre tool=bash action=run args=["command","cwd"]');
  });

  it("logToolUse warns that it is deprecated in favour of logToolCall, then delegates", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning);
    process.on("warning", onWarning);
    try {
      await logToolUse({ toolName: "read" });
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.some((w) => w.name === "DeprecationWarning" && w.message.includes("logToolCall"))).toBe(true);
    expect(logs[0]!.msg).toBe("tool.pre tool=read action=null args=[]");
  });
});
