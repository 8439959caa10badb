// When OpenTelemetry is the only sink, the pipeline serialises nothing: spans are built from the
// signals' own fields, and only the strings exported are redacted. A payload getter counts how
// often the signal was serialised: never for the export alone, once (two reads: the plain-JSON
// check, then JSON.stringify) when a sink that writes the payload (a database, the live stream)
// shares the flush.
import { describe, expect, it } from "vitest";
import { configureRedaction, flushSignals, REDACTION_MASK, HookSignal, RunEvent, SessionObserver, ToolCallFinished, ToolCallStarted, type SignalSink } from "@hooklens/runtime";
import { exportToOpenTelemetry } from "@hooklens/runtime/otel";
import { memoryTracing, only } from "./support.js";

const TOKEN = "sk-live-0123456789abcdefghijklmnop";

/** One tool call whose hook payload holds an object that counts each read of its field. */
async function emitCall(observer: SessionObserver, probe: { reads: number }): Promise<void> {
  const counted = {
    get field(): string {
      probe.reads++;
      return "value";
    },
  };
  await observer.emit(new ToolCallStarted({ toolName: "lookup", callId: "call-1", source: "act" }));
  await observer.emit(new HookSignal("tool.pre", { toolName: "lookup", callId: "call-1", counted }));
  await observer.emit(new ToolCallFinished({ toolName: "lookup", callId: "call-1", status: "error", durationMs: 1, error: { name: "LookupError", message: `refused ${TOKEN}` } }));
}

describe("the export reads the signals themselves", () => {
  it("as the only sink: no payload is serialised, and the call still has its span", async () => {
    const { provider, spans } = memoryTracing();
    const observer = new SessionObserver();
    const exported = exportToOpenTelemetry(observer, { tracer: provider.getTracer("lazy") });
    const probe = { reads: 0 };
    await emitCall(observer, probe);
    await exported.end();
    expect(probe.reads).toBe(0);
    const span = only(spans(), "execute_tool lookup");
    expect(span.attributes).toMatchObject({ "gen_ai.tool.call.id": "call-1", "hooklens.tool.status": "error", "error.type": "LookupError" });
    expect(span.events.map((e) => e.name)).toEqual(["tool.pre", "exception"]);
  });

  it("beside a sink that writes the payload: it is serialised once, in the flush, for both", async () => {
    const { provider } = memoryTracing();
    const observer = new SessionObserver();
    const seen: string[] = [];
    const writer: SignalSink = {
      write: (_sessionId, batch) => {
        for (const signal of batch) seen.push(signal.payloadJson);
      },
      flush: () => Promise.resolve(),
    };
    const remove = observer.addSink(writer);
    const exported = exportToOpenTelemetry(observer, { tracer: provider.getTracer("lazy") });
    const probe = { reads: 0 };
    await emitCall(observer, probe);
    await flushSignals();
    // One serialisation for both: the plain-JSON check reads the getter, then JSON.stringify
    // does (a second serialisation would read it twice more).
    expect(probe.reads).toBe(2);
    expect(seen.join("\n")).toContain('"field":"value"');
    // The writer's copy is the encoded, redacted payload.
    expect(seen.join("\n")).not.toContain(TOKEN);
    await exported.end();
    remove();
  });

  it("redacts every string it exports from them: error texts, run event values, keys the rules name", async () => {
    const { provider, spans } = memoryTracing();
    const observer = new SessionObserver();
    const exported = exportToOpenTelemetry(observer, { tracer: provider.getTracer("lazy") });
    configureRedaction({ keys: ["customer"] });
    try {
      await emitCall(observer, { reads: 0 });
      await observer.emit(new RunEvent({ event: "budget.warning", runId: "run-1", payload: { apiKey: "plain-looking", password: 12345, note: `using ${TOKEN}`, customer: "Ada", spentUsd: 0.5 } }));
      await exported.end();
    } finally {
      configureRedaction();
    }
    const all = JSON.stringify(spans().map((s) => [s.name, s.attributes, s.events, s.status]));
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain("plain-looking");
    expect(all).not.toContain("Ada");
    expect(all).not.toContain("12345");
    const event = only(spans(), "session").events.find((e) => e.name === "budget.warning");
    expect(event?.attributes).toMatchObject({ "hooklens.run_event.apiKey": REDACTION_MASK, "hooklens.run_event.password": REDACTION_MASK, "hooklens.run_event.customer": REDACTION_MASK, "hooklens.run_event.spentUsd": 0.5 });
    expect(event?.attributes?.["hooklens.run_event.note"]).toBe(`using ${REDACTION_MASK}`);
    expect(only(spans(), "execute_tool lookup").status.message).toBe(`refused ${REDACTION_MASK}`);
  });
});
