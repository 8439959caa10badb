// A signal whose payload is over the byte cap is stored as { truncated, originalBytes, data }:
// its call's ids went with it, and the call had no span at all. The export reads those fields
// from the signal itself instead, still redacted and without the contents.
import { SpanStatusCode } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { PAYLOAD_BYTE_CAP, Session, Tool, ToolCallStarted } from "@hooklens/runtime";
import { exportToOpenTelemetry } from "@hooklens/runtime/otel";
import { useCapturedLogs } from "../middleware/support.js";
import { memoryTracing, only, parentOf } from "./support.js";

useCapturedLogs();

describe("calls whose signals are over the payload byte cap", () => {
  it("still become spans with their ids, status and error; the contents stay out", async () => {
    const { provider, spans } = memoryTracing();
    const session = new Session();
    void session.hooks;
    const branch = session.newBranch();
    const big = "x".repeat(PAYLOAD_BYTE_CAP + 1_000);
    branch.registerTools([
      new Tool({ name: "echo", funcCallable: ({ text }: { text: string }) => text }),
      new Tool({ name: "refuse", funcCallable: () => { throw new Error("token=sk-live-0123456789abcdefghijklmnop refused"); } }),
    ]);
    const exported = exportToOpenTelemetry(session, { tracer: provider.getTracer("test") });
    await branch.act({ function: "echo", arguments: { text: big } });
    await branch.act({ function: "refuse", arguments: { text: big } }).catch(() => undefined);
    await exported.end();

    const started = session.observer.byType(ToolCallStarted);
    expect(started).toHaveLength(2);
    const all = spans();
    const root = only(all, "session");
    const echo = only(all, "execute_tool echo");
    expect(parentOf(echo)).toBe(root.spanContext().spanId);
    expect(echo.attributes).toMatchObject({ "gen_ai.tool.name": "echo", "gen_ai.tool.call.id": started[0]!.callId, "hooklens.tool.status": "ok" });
    expect(echo.attributes["hooklens.unfinished"]).toBeUndefined();
    expect(echo.events.map((e) => e.name)).toEqual(["tool.pre", "tool.post"]);
    const refused = only(all, "execute_tool refuse");
    expect(refused.status.code).toBe(SpanStatusCode.ERROR);
    expect(refused.attributes["hooklens.tool.status"]).toBe("error");
    expect(JSON.stringify(all.map((s) => [s.attributes, s.events, s.status]))).not.toMatch(/xxxxxxxxxx|sk-live-0123456789/);
  });
});
