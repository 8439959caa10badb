import { InvalidValueError } from "../shared/errors.js";
import { describeValue } from "../shared/arguments.js";

/**
 * The eleven Session hook points. The vocabulary is closed; four members have no production emit
 * site (see {@link DORMANT_HOOK_POINTS}), so a handler registered on them never runs.
 */
export enum HookPoint {
  SESSION_START = "session.start",
  SESSION_END = "session.end",
  BRANCH_CREATE = "branch.create",
  API_PRE_CALL = "api.pre_call",
  API_POST_CALL = "api.post_call",
  API_STREAM_CHUNK = "api.stream_chunk",
  TOOL_PRE = "tool.pre",
  TOOL_POST = "tool.post",
  TOOL_ERROR = "tool.error",
  MESSAGE_ADD = "message.add",
  ARTIFACT_CREATED = "artifact.created",
}

/** A hook point as the enum member or its exact string value (`"tool.pre"`, not `"TOOL_PRE"`). */
export type HookPointLike = HookPoint | `${HookPoint}`;

/** Points that are declared but that nothing in the runtime ever emits. */
export const DORMANT_HOOK_POINTS: ReadonlySet<HookPoint> = new Set([
  HookPoint.API_PRE_CALL,
  HookPoint.API_POST_CALL,
  HookPoint.API_STREAM_CHUNK,
  HookPoint.ARTIFACT_CREATED,
]);

const VALUES: ReadonlySet<string> = new Set(Object.values(HookPoint));
const SORTED_VALUES = [...VALUES].sort();

/** Returns the member for an enum member or exact value; anything else is an error listing the valid values. */
export function normalizePoint(point: HookPointLike | string): HookPoint {
  if (typeof point === "string" && VALUES.has(point)) return point as HookPoint;
  throw new InvalidValueError(
    `Unknown hook point ${typeof point === "string" ? JSON.stringify(point) : describeValue(point)}; valid values: ${SORTED_VALUES.join(", ")}`,
  );
}
