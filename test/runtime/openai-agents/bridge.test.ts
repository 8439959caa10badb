// The bridge on real runs of the `@openai/agents` Runner (a scripted model, no network): what a
// run does arrives as HookLens signals, streamed live over a real socket, recorded to SQLite and
// exported as OpenTelemetry spans, and the SDK decides exactly what it decides without HookLens.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, InputGuardrailTripwireTriggered, Runner, ToolGuardrailFunctionOutputFactory, addTraceProcessor, defineToolInputGuardrail, run, setTraceProcessors, setTracingDisabled, tool } from "@openai/agents";
import { z } from "zod";
import { RunStart, Session, Signal as SignalClass, ToolCallFinished, ToolCallStarted, type Signal } from "@hooklens/runtime";
import { SqliteSignalStore } from "@hooklens/runtime/store";
import { exportToOpenTelemetry } from "@hooklens/runtime/otel";
import { instrumentRunner } from "@hooklens/runtime/openai-agents";
import { streamRun } from "../../client/signals/agentRun.js";
import { memoryTracing, spanTree } from "../otel/support.js";
import { ScriptedModel, scriptedProvider, type Turn } from "./scriptedModel.js";

/** Every span the SDK ended, seen by a processor of the program's own: it must keep receiving them. */
const programSpans: string[] = [];

beforeAll(() => {
  // The SDK's default processor exports to api.openai.com; tests use no network. A program's own
  // processor stays, and the bridge adds its own beside it.
  setTraceProcessors([]);
  // The SDK turns tracing off when NODE_ENV is "test" (vitest sets it), and the bridge with it.
  setTracingDisabled(false);
  addTraceProcessor({
    onTraceStart: async () => {},
    onTraceEnd: async () => {},
    onSpanStart: async () => {},
    onSpanEnd: async (span) => void programSpans.push(span.spanData.type),
    shutdown: async () => {},
    forceFlush: async () => {},
  });
});

const temp = mkdtempSync(join(tmpdir(), "hooklens-openai-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** What a signal says, in a line: its kind, then the fields these tests read. */
function line(signal: Signal): string {
  const s = signal as unknown as Record<string, unknown> & { metadata: Record<string, unknown> };
  switch (signal.constructor.name) {
    case "RunStart":
      return `RunStart ${String(s.metadata["branchName"])}`;
    case "RunEnd":
      return "RunEnd";
    case "RunFailed":
      return `RunFailed ${(s["data"] as { message: string }).message}`;
    case "ToolCallStarted":
      return `ToolCallStarted ${String(s["toolName"])}`;
    case "ToolCallFinished":
      return `ToolCallFinished ${String(s["toolName"])} ${String(s["status"])}`;
    case "RunEvent":
      return `RunEvent ${String(s["event"])} ${JSON.stringify(s["payload"])}`;
    default:
      return signal.constructor.name;
  }
}

function scripted(turns: readonly Turn[]): { model: ScriptedModel; runner: Runner } {
  const model = new ScriptedModel(turns);
  return { model, runner: new Runner({ modelProvider: scriptedProvider(model), model: "scripted" }) };
}

const lookup = tool({
  name: "lookup",
  description: "Looks an account up.",
  parameters: z.object({ account: z.string(), password: z.string() }),
  execute: async ({ account }) => `account ${account}: active`,
});

/** Runs `run` with a bridge on `runner` recording into a fresh session; returns the session and the signal lines. */
async function recorded(runner: Runner | null, run: (bridge: ReturnType<typeof instrumentRunner>) => Promise<unknown>): Promise<{ session: Session; lines: string[] }> {
  const session = new Session();
  const bridge = instrumentRunner(runner, { signals: session });
  try {
    await run(bridge);
  } finally {
    bridge.detach();
  }
  await session.observer.flush();
  return { session, lines: session.observer.byType(SignalClass).map(line) };
}

const HANDOFF_LINES = [
  "RunStart triage",
  `RunEvent handoff {"fromAgent":"triage","toAgent":"billing"}`,
  "RunEnd",
  "RunStart billing",
  "ToolCallStarted lookup",
  "ToolCallFinished lookup ok",
  "RunEnd",
];

function handoffRun(): { runner: Runner; triage: Agent } {
  const billing = new Agent({ name: "billing", instructions: "Bill.", tools: [lookup] });
  const triage = new Agent({ name: "triage", instructions: "Route.", handoffs: [billing] });
  const { runner } = scripted([{ call: "transfer_to_billing", args: {} }, { call: "lookup", args: { account: "42", password: "hunter2" } }, { text: "All set." }]);
  return { runner, triage };
}

describe("instrumentRunner on real runs", () => {
  it("a handoff chain: the agent handed to nests in the one that handed off; live, SQLite and OpenTelemetry see the same run", async () => {
    const { runner, triage } = handoffRun();
    const store = await SqliteSignalStore.open(join(temp, "handoff.db"));
    const tracing = memoryTracing();
    let session!: Session;
    let lines!: string[];
    let finalOutput: unknown;
    const spansBefore = programSpans.length;
    const live = await streamRun(async () => {
      ({ session, lines } = await recorded(runner, async (bridge) => {
        (bridge.signals as Session).observer.bindDbPersistence((bridge.signals as Session).id, store);
        const exported = exportToOpenTelemetry(bridge.signals as Session, { tracer: tracing.provider.getTracer("test"), captureContent: true });
        finalOutput = (await runner.run(triage, "My bill is wrong.")).finalOutput;
        await (bridge.signals as Session).observer.flush();
        await exported.end();
      }));
    });
    // The SDK decided as without HookLens, and the program's own processor still got every span.
    expect(finalOutput).toBe("All set.");
    expect(programSpans.length - spansBefore).toBeGreaterThanOrEqual(5);
    expect(lines).toEqual(HANDOFF_LINES);
    const [triageStart, billingStart] = session.observer.byType(RunStart);
    expect(triageStart!.metadata).toMatchObject({ branchName: "triage", parentBranchId: null });
    expect(billingStart!.metadata).toMatchObject({ branchName: "billing", parentBranchId: triageStart!.metadata["branchId"] });
    const started = session.observer.byType(ToolCallStarted)[0]!;
    expect(started).toMatchObject({ toolName: "lookup", source: "openai-agents", arguments: { account: "42", password: "hunter2" } });
    expect(started.metadata["branchId"]).toBe(billingStart!.metadata["branchId"]);
    expect(session.observer.byType(ToolCallFinished)[0]).toMatchObject({ status: "ok", result: "account 42: active" });

    // SQLite: the same signals, the password redacted like every signal's.
    await store.flush();
    const rows = store.listSessionSignals(session.id);
    expect(rows.map((r) => r.kind)).toEqual(["RunStart", "RunEvent", "RunEnd", "RunStart", "ToolCallStarted", "ToolCallFinished", "RunEnd"]);
    const recordedArgs = rows.find((r) => r.kind === "ToolCallStarted")!.payload["arguments"] as Record<string, unknown>;
    expect(recordedArgs["account"]).toBe("42");
    expect(recordedArgs["password"]).not.toBe("hunter2");
    expect(JSON.stringify(rows)).not.toContain("hunter2");
    store.close();

    // Live: the frames on the socket, the tool call grouped under its agent's branch.
    const liveKinds = live.session.model.entries.map((entry) => entry.frame.kind);
    expect(liveKinds).toEqual(rows.map((r) => r.kind));
    expect(JSON.stringify(live.session.model.entries.map((e) => e.frame))).not.toContain("hunter2");

    // OpenTelemetry: one invoke_agent span per agent, the tool call inside the billing agent's.
    expect(spanTree(tracing.spans())).toEqual(["session", "  invoke_agent triage", "  invoke_agent billing", "    execute_tool lookup"]);
  });

  it("the top-level run() (the SDK's hidden default runner) is seen without a runner: instrumentRunner()", async () => {
    const { lines } = await recorded(null, async () => {
      // The default runner's model provider is the SDK's; an agent given a model instance uses that instead.
      const model = new ScriptedModel([{ text: "Hi." }]);
      await run(new Agent({ name: "greeter", model }), "Hello");
    });
    expect(lines).toEqual(["RunStart greeter", "RunEnd"]);
  });

  it("an input guardrail tripwire: the guardrail's verdict on its agent, the run failed, the error the program catches unchanged", async () => {
    const agent = new Agent({
      name: "support",
      instructions: "Help.",
      inputGuardrails: [{ name: "no-secrets", execute: async () => ({ tripwireTriggered: true, outputInfo: { found: "password" } }) }],
    });
    const { runner } = scripted([{ text: "never reached" }]);
    let caught: unknown;
    const { lines } = await recorded(runner, async () => {
      caught = await runner.run(agent, "my password is hunter2").catch((error: unknown) => error);
    });
    expect(caught).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(lines[0]).toBe("RunStart support");
    expect(lines).toContain(`RunEvent guardrail {"guardrail":"no-secrets","triggered":true,"agent":"support"}`);
    expect(lines.at(-1)).toMatch(/^RunFailed Error in agent run: InputGuardrailTripwireTriggered/);
  });

  it("a tool input guardrail that rejects: the tool call ends with the guardrail's message; recordResult names the guardrail and its verdict", async () => {
    const guarded = tool({
      name: "refund",
      description: "Refunds.",
      parameters: z.object({ amount: z.number() }),
      inputGuardrails: [
        defineToolInputGuardrail({ name: "refund-limit", run: async ({ toolCall }) => (JSON.parse(toolCall.arguments).amount > 100 ? ToolGuardrailFunctionOutputFactory.rejectContent("over the limit") : ToolGuardrailFunctionOutputFactory.allow()) }),
      ],
      execute: async () => "refunded",
    });
    const agent = new Agent({ name: "billing", instructions: "Bill.", tools: [guarded] });
    const { runner } = scripted([{ call: "refund", args: { amount: 500 } }, { text: "I could not refund that." }]);
    const { lines } = await recorded(runner, async (bridge) => bridge.recordResult(await runner.run(agent, "refund 500")));
    expect(lines).toEqual([
      "RunStart billing",
      "ToolCallStarted refund",
      "ToolCallFinished refund ok",
      "RunEnd",
      `RunEvent guardrail {"guardrail":"refund-limit","stage":"tool_input","triggered":true,"behavior":"rejectContent","message":"over the limit","agent":"billing"}`,
    ]);
  });

  it("an approval: the interruption recorded as requested, the approval as granted when the run resumes, then the call", async () => {
    const wire = tool({ name: "wire", description: "Wires money.", parameters: z.object({ to: z.string() }), needsApproval: true, execute: async ({ to }) => `sent to ${to}` });
    const agent = new Agent({ name: "payments", instructions: "Pay.", tools: [wire] });
    const { runner } = scripted([{ call: "wire", args: { to: "ACME" } }, { text: "Sent." }]);
    let result!: { finalOutput?: unknown };
    const { lines } = await recorded(runner, async (bridge) => {
      const first = await runner.run(agent, "pay ACME");
      bridge.recordResult(first);
      expect(first.interruptions).toHaveLength(1);
      first.state.approve(first.interruptions[0]!);
      result = await runner.run(agent, first.state);
    });
    expect(result.finalOutput).toBe("Sent.");
    expect(lines).toEqual([
      "RunStart payments",
      "RunEnd",
      `RunEvent approval {"tool":"wire","toolCallId":"call_1_wire","approved":null,"agent":"payments","arguments":"{\\"to\\":\\"ACME\\"}"}`,
      "RunStart payments",
      "ToolCallStarted wire",
      `RunEvent approval {"tool":"wire","toolCallId":"call_1_wire","approved":true,"agent":"payments"}`,
      "ToolCallFinished wire ok",
      "RunEnd",
    ]);
  });

  it("a rejected approval: the call is recorded as denied", async () => {
    const wire = tool({ name: "wire", description: "Wires money.", parameters: z.object({ to: z.string() }), needsApproval: true, execute: async () => "sent" });
    const agent = new Agent({ name: "payments", instructions: "Pay.", tools: [wire] });
    const { runner } = scripted([{ call: "wire", args: { to: "ACME" } }, { text: "Not sent." }]);
    const { lines, session } = await recorded(runner, async () => {
      const first = await runner.run(agent, "pay ACME");
      first.state.reject(first.interruptions[0]!);
      await runner.run(agent, first.state);
    });
    expect(lines).toContain("ToolCallFinished wire denied");
    expect(session.observer.byType(ToolCallFinished)[0]).toMatchObject({ status: "denied", reason: "rejected by a human (approval)" });
    expect(lines).toContain(`RunEvent approval {"tool":"wire","approved":false}`);
  });

  it("errors: a tool that throws ends its call as an error; a model that throws fails the agent's run, and the program gets the SDK's error", async () => {
    const broken = tool({ name: "broken", description: "Fails.", parameters: z.object({}), execute: async () => { throw new Error("disk full"); } });
    const agent = new Agent({ name: "worker", instructions: "Work.", tools: [broken] });
    const { runner } = scripted([{ call: "broken", args: {} }, { fail: "model unavailable" }]);
    let caught: unknown;
    const { lines, session } = await recorded(runner, async () => {
      caught = await runner.run(agent, "go").catch((error: unknown) => error);
    });
    expect((caught as Error).message).toBe("model unavailable");
    expect(lines).toEqual(["RunStart worker", "ToolCallStarted broken", "ToolCallFinished broken error", "RunFailed Error in agent run: Error: model unavailable"]);
    // The SDK itself redacts a failed tool's details from its trace unless told to log tool data.
    expect(session.observer.byType(ToolCallFinished)[0]!.error?.message).toMatch(/^Error running tool/);
  });

  it("a detached bridge records nothing more", async () => {
    const { runner, triage } = handoffRun();
    const session = new Session();
    instrumentRunner(runner, { signals: session }).detach();
    await runner.run(triage, "My bill is wrong.");
    await session.observer.flush();
    expect(session.observer.byType(SignalClass)).toEqual([]);
  });
});
