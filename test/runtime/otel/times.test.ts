// Span and event times are the signals' own `createdAt`, to the nanosecond the float holds. The
// export converts each distinct time once and hands the SDK the same array while the time repeats
// (a call's signals often share a millisecond): these cases interleave repeated and changing times,
// so a conversion kept past its time, or an array shared where times differ, shows as a wrong time.
import type { HrTime } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { HookSignal, SessionObserver, ToolCallFinished, ToolCallStarted } from "@hooklens/runtime";
import { exportToOpenTelemetry } from "@hooklens/runtime/otel";
import { memoryTracing, only } from "./support.js";

/** What the SDK should receive for `seconds`: whole seconds and the rounded nanoseconds. */
function expected(seconds: number): HrTime {
  const whole = Math.floor(seconds);
  return [whole, Math.min(999_999_999, Math.round((seconds - whole) * 1e9))];
}

describe("span and event times", () => {
  it("are each signal's createdAt, whether the times repeat, change, or come back", async () => {
    const { provider, spans } = memoryTracing();
    const observer = new SessionObserver();
    const exported = exportToOpenTelemetry(observer, { tracer: provider.getTracer("times") });
    const t = [1_764_000_000.125, 1_764_000_000.126, 1_764_000_001.5, 1_764_000_002.9999];
    // Call a: every signal at one time. Call b: each at another, back to an earlier one at its end.
    // Call c: starts at b's last time, then two changes.
    const calls: [string, number, number, number, number][] = [
      ["a", t[0]!, t[0]!, t[0]!, t[0]!],
      ["b", t[1]!, t[2]!, t[1]!, t[2]!],
      ["c", t[2]!, t[2]!, t[3]!, t[3]!],
    ];
    for (const [name, started, pre, post, finished] of calls) {
      const callId = `call-${name}`;
      await observer.emit(new ToolCallStarted({ toolName: name, callId, source: "act" }, { createdAt: started }));
      await observer.emit(new HookSignal("tool.pre", { toolName: name, callId }, { createdAt: pre }));
      await observer.emit(new HookSignal("tool.post", { toolName: name, callId }, { createdAt: post }));
      await observer.emit(new ToolCallFinished({ toolName: name, callId, status: "ok", durationMs: 1 }, { createdAt: finished }));
    }
    await exported.end();
    for (const [name, started, pre, post, finished] of calls) {
      const span = only(spans(), `execute_tool ${name}`);
      expect([span.startTime, span.events.map((e) => e.time), span.endTime]).toEqual([expected(started), [expected(pre), expected(post)], expected(finished)]);
    }
    // The conversions themselves: a time on the second and one just below the next.
    expect(expected(t[0]!)).toEqual([1_764_000_000, 125_000_000]);
    expect(only(spans(), "execute_tool c").endTime[1]).toBeGreaterThan(999_000_000);
    expect(only(spans(), "session").startTime).toEqual(expected(t[0]!));
  });
});
