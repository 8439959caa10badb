import { requireObject, requirePositive } from "../shared/arguments.js";
import type { JsonObject } from "../session/serialize.js";
import type { SessionSignalRecord } from "../store/signalStore.js";
import { signalFrameSchema, type SignalFrame } from "./frames.js";

/**
 * A persisted signal as the frame a live run would have sent for it, so that a recorded session
 * can be shown like a live one. A persisted payload keeps no signal id (the row never did), so
 * the record's position in its session stands in for it (`#1`, `#2`, …); the creation time and
 * branch come from the payload, falling back to the time the row was written. Null when the
 * record cannot make a valid frame (a file written by something else).
 */
export function recordedSignalFrame(record: SessionSignalRecord, position: number): SignalFrame | null {
  // A caller's mistake throws; only what the file holds may make the answer null.
  requireObject(record, "recordedSignalFrame(record, position)", "record (a SessionSignalRecord)");
  requirePositive(position, "recordedSignalFrame(record, position)", "position (1 for the first record)", true);
  const payload: unknown = record.payload;
  if (!isObject(payload)) return null;
  const metadata = payload["metadata"];
  const branchId = isObject(metadata) ? metadata["branchId"] : undefined;
  const createdAt = payload["createdAt"];
  const frame = signalFrameSchema.safeParse({
    type: "signal",
    sessionId: record.sessionId,
    branchId: typeof branchId === "string" ? branchId : null,
    id: `#${position}`,
    kind: record.kind,
    createdAt: typeof createdAt === "number" && Number.isFinite(createdAt) ? createdAt : record.ts,
    payload,
  });
  return frame.success ? frame.data : null;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
