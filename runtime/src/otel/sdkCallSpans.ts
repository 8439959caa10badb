// The SDK bridges' signals as spans: a callback call (a hook, a permission callback) is one span
// from its start for its duration, under the session's span; a query event is a span event there.
import { SpanKind, SpanStatusCode, type Context, type Span, type Tracer } from "@opentelemetry/api";
import type { EncodedSignal } from "../session/pipeline/encodedSignal.js";
import { GEN_AI, HOOKLENS } from "./attributes.js";
import { hrTime } from "./hrTimes.js";
import { countOf, errorOf, textOf, type Fields } from "./signalFields.js";
import { spanName } from "./spanNames.js";

/** The kinds this file turns into spans (callback calls) and span events (query events). */
export const SDK_CALL_KINDS: ReadonlySet<string> = new Set(["ClaudeHookCall", "ClaudePermissionCall"]);
export const SDK_EVENT_KINDS: ReadonlySet<string> = new Set(["ClaudeQueryEvent"]);

const DENYING = new Set(["deny", "block"]);
const FAILED = new Set(["threw", "aborted", "timeout"]);

/** One finished span for a callback call: `hook <Event>` or `permission <tool>`. */
export function sdkCallSpan(tracer: Tracer, parent: Context, signal: EncodedSignal, f: Fields): void {
  const event = textOf(f, "event");
  const toolName = textOf(f, "toolName");
  const name = signal.kind === "ClaudeHookCall" ? spanName("hook", event ?? "unknown") : spanName("permission", toolName ?? "unknown");
  const durationMs = countOf(f["durationMs"]) ?? 0;
  const decision = textOf(f, "decision");
  const outcome = textOf(f, "outcome");
  const reason = textOf(f, "reason");
  const span: Span = tracer.startSpan(
    name,
    {
      kind: SpanKind.INTERNAL,
      startTime: hrTime(signal.createdAt),
      attributes: defined({
        [GEN_AI.toolName]: toolName,
        [GEN_AI.toolCallId]: textOf(f, "toolUseId"),
        [HOOKLENS.sdkHookEvent]: event,
        [HOOKLENS.sdkMatcher]: textOf(f, "matcher"),
        [HOOKLENS.sdkCallback]: textOf(f, "callback"),
        [HOOKLENS.sdkDecision]: decision,
        [HOOKLENS.sdkOutcome]: outcome,
        [HOOKLENS.durationMs]: durationMs,
      }),
    },
    parent,
  );
  if (decision !== null && DENYING.has(decision)) {
    span.setAttributes(defined({ [HOOKLENS.denialKind]: signal.kind, [HOOKLENS.denialReason]: reason }));
  }
  if (outcome !== null && FAILED.has(outcome)) {
    const error = errorOf(f["error"]) ?? { name: outcome === "timeout" ? "Timeout" : "AbortError", message: `the callback ${outcome === "threw" ? "threw" : `was ${outcome === "timeout" ? "timed out" : "aborted"}`}` };
    span.recordException({ name: error.name, message: error.message }, hrTime(signal.createdAt + durationMs / 1000));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  }
  span.end(hrTime(signal.createdAt + durationMs / 1000));
}

/** A query event (`hook_response`, `permission_denied`, …) as an event of `span`. */
export function sdkQueryEvent(span: Span, signal: EncodedSignal, f: Fields): void {
  span.addEvent(
    textOf(f, "subtype") ?? signal.kind,
    defined({ [HOOKLENS.sdkHookEvent]: textOf(f, "event"), [GEN_AI.toolName]: textOf(f, "toolName"), [GEN_AI.toolCallId]: textOf(f, "toolUseId"), [HOOKLENS.sdkOutcome]: textOf(f, "outcome"), [HOOKLENS.denialReason]: textOf(f, "reason") }),
    hrTime(signal.createdAt),
  );
}

function defined(attributes: Record<string, string | number | null>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== null) out[key] = value;
  return out;
}
