// Signals: the envelopes a SessionObserver records.
import assert from "node:assert/strict";
import { HookPoint, HookSignal, RunEnd, Signal } from "@hooklens/runtime";

const signal = new Signal({ data: { step: "plan" }, emitterRole: "planner" });
console.log(signal.id, signal.createdAt, signal.schemaVersion); // a UUID v4, seconds as a float, 1

// Two signals are the same signal when their ids are equal, whatever they carry.
assert.ok(signal.equals(new Signal({ id: signal.id, data: "something else" })));

// A HookSignal stores the point as its string value and a copy of the payload.
const payload = { toolName: "read", callId: "c1", argsSummary: "{}" };
const hookSignal = new HookSignal(HookPoint.TOOL_PRE, payload);
payload.toolName = "changed later";
assert.equal(hookSignal.point, "tool.pre");
assert.equal(hookSignal.payload["toolName"], "read");

// RunEnd carries usage fields that default to zero.
const end = new RunEnd({ data: "result", inputTokens: 120, outputTokens: 30 });
console.log(end.inputTokens, end.outputTokens, end.totalCostUsd); // 120 30 0
