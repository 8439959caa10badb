import { describe, expect, it } from "vitest";
import { HookSignal, sanitizeSignalPayload } from "@hooklens/runtime";
import { recordedSignalFrame, signalFrameSchema } from "@hooklens/runtime/live";

describe("recordedSignalFrame: a persisted row as the frame a live run sends", () => {
  it("takes kind, session, creation time and branch from the record, and its position as the id", () => {
    const signal = new HookSignal("tool.pre", { tool: "bash" }, { metadata: { branchId: "b-1" } });
    const frame = recordedSignalFrame({ sessionId: "s-1", kind: "HookSignal", opId: "", ts: 1_700_000_000, payload: sanitizeSignalPayload(signal) }, 3);
    expect(signalFrameSchema.parse(frame)).toEqual(frame);
    expect(frame).toMatchObject({ type: "signal", sessionId: "s-1", branchId: "b-1", id: "#3", kind: "HookSignal", createdAt: signal.createdAt });
    expect(frame!.payload["point"]).toBe("tool.pre");
  });

  it("falls back to the row's time and no branch when the payload has neither", () => {
    const frame = recordedSignalFrame({ sessionId: "s-1", kind: "Custom", opId: "", ts: 1_700_000_123.5, payload: { data: { x: 1 } } }, 1);
    expect(frame).toMatchObject({ createdAt: 1_700_000_123.5, branchId: null });
  });

  it("is null for a record no frame can carry", () => {
    const garbage = { sessionId: "s-1", kind: "", opId: "", ts: 1, payload: { data: 1 } };
    expect(recordedSignalFrame(garbage, 1)).toBeNull();
    expect(recordedSignalFrame({ ...garbage, kind: "X", payload: "not an object" as never }, 1)).toBeNull();
  });
});
