// A governance denial marks exactly the call it stopped: the GateDenied signal carries the call's
// id (ToolCallAction.callId), so two concurrent calls of one tool on one branch, one allowed and
// one denied, end up as one clean span and one denied span, whichever started last.
import { SpanStatusCode } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { GateDenied, Session, Tool, ToolCallAction, actAll } from "@hooklens/runtime";
import { exportToOpenTelemetry } from "@hooklens/runtime/otel";
import { useCapturedLogs } from "../middleware/support.js";
import { memoryTracing } from "./support.js";

useCapturedLogs();

describe("GateDenied on the call it denied", () => {
  it.each([
    ["the first", "/etc"],
    ["the second", "/tmp"],
  ])("two concurrent calls of one tool on one branch: %s is denied, only its span is marked", async (_which, deniedPath) => {
    const { provider, spans } = memoryTracing();
    const session = new Session();
    const branch = session.newBranch();
    branch.registerTools(new Tool({ name: "read", funcCallable: ({ path }: { path: string }) => `contents of ${path}` }));
    session.gate(function noSystemPaths(subject) {
      return !(subject instanceof ToolCallAction && subject.arguments["path"] === deniedPath);
    });
    const exported = exportToOpenTelemetry(session, { tracer: provider.getTracer("test") });

    // Both calls are open before either is authorized: the tool name and branch cannot tell them apart.
    const outputs = await actAll(branch, [
      { function: "read", arguments: { path: "/etc" } },
      { function: "read", arguments: { path: "/tmp" } },
    ]);
    await exported.end();

    const [denial] = session.observer.byType(GateDenied);
    const deniedCallId = (denial!.data as ToolCallAction).callId;
    expect(deniedCallId).toMatch(/^[0-9a-f-]{36}$/);
    expect(outputs.map((o) => o.output)).toEqual(
      ["/etc", "/tmp"].map((path) => (path === deniedPath ? { error: "denied by governance gate", function: "read" } : `contents of ${path}`)),
    );

    const calls = spans().filter((s) => s.name === "execute_tool read");
    expect(calls).toHaveLength(2);
    const denied = calls.find((s) => s.attributes["gen_ai.tool.call.id"] === deniedCallId)!;
    const allowed = calls.find((s) => s.attributes["gen_ai.tool.call.id"] !== deniedCallId)!;
    // The gate's own answer and name (GateDenied's metadata) beside what act() tells the program.
    const reason = "denied by governance gate: the gate returned false";
    expect(denied.status).toEqual({ code: SpanStatusCode.ERROR, message: reason });
    expect(denied.attributes).toMatchObject({ "hooklens.denial.kind": "GateDenied", "hooklens.denial.reason": reason, "hooklens.denial.hook": "observer.gate:noSystemPaths", "hooklens.tool.status": "denied" });
    expect(denied.events.map((e) => e.name)).toEqual(["GateDenied"]);
    expect(denied.events[0]!.attributes).toMatchObject({ "gen_ai.tool.call.id": deniedCallId });
    expect(allowed.status.code).toBe(SpanStatusCode.UNSET);
    expect(allowed.attributes["hooklens.denial.kind"]).toBeUndefined();
    expect(allowed.events.map((e) => e.name)).toEqual([]);
  });

  it("a denial of an action authorized by hand (no call id) goes on the session span, not on a call it may not be about", async () => {
    const { provider, spans } = memoryTracing();
    const session = new Session();
    const branch = session.newBranch();
    session.gate(() => false);
    const exported = exportToOpenTelemetry(session, { tracer: provider.getTracer("test") });
    expect(await branch.authorize(new ToolCallAction({ function: "read", branchId: branch.id }))).toBe(false);
    await exported.end();
    const [root] = spans();
    expect(root!.name).toBe("session");
    expect(root!.events.map((e) => [e.name, e.attributes?.["gen_ai.tool.name"]])).toEqual([["GateDenied", "read"]]);
  });
});
