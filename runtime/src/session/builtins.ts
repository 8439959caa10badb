import { getLogger } from "../shared/log.js";
import {
  StatusReasonCode,
  TERMINAL_SESSION_STATUSES,
  getSessionStateStore,
  type MessageRecord,
  type SessionUpdate,
  type SessionUsage,
} from "../store/sessionStateStore.js";
import { Message } from "./message.js";
import type { HookPayloadMap } from "./payloads.js";
import { toJsonSafe, type JsonObject } from "./serialize.js";
import { redactionRules } from "../shared/redaction/index.js";
import { requireObject } from "../shared/arguments.js";
import { InvalidValueError } from "../shared/errors.js";

/**
 * The built-in Session handlers. The persistence ones write through the shared
 * SessionStateStore (`setSessionStateStore`), every text and record they write redacted with the
 * shared rules first (a state store is one more way out of the process); the logging ones write
 * to the runtime logger, which redacts. All are async, ignore payload fields they do not know,
 * and fail on a missing required field.
 */

export type SessionStartPayload = HookPayloadMap["session.start"];
export type SessionEndPayload = HookPayloadMap["session.end"];
export type BranchProvenancePayload = HookPayloadMap["branch.create"];

/** What `persistMessage` needs, which is more than a Branch's MESSAGE_ADD emission carries (no `sessionId`). */
export interface PersistMessagePayload {
  message: Message | MessageRecord;
  sessionId: string;
  branchId?: string | null;
  branchProgressionId?: string | null;
  sessionProgressionId?: string | null;
  /** Older name of `branchProgressionId`. */
  progressionId?: string | null;
}

export interface ApiMetricsPayload {
  model?: string | null;
  provider?: string | null;
  tokens?: { total?: number | null } | null;
  latencyMs?: number | null;
}

export interface ToolCallLogPayload {
  toolName: string;
  action?: string | null;
  args?: Record<string, unknown> | null;
}

const END_REASONS: Readonly<Record<string, StatusReasonCode>> = {
  completed: StatusReasonCode.COMPLETED_OK,
  failed: StatusReasonCode.FAILED_EXCEPTION,
  timed_out: StatusReasonCode.TIMED_OUT_DEADLINE,
  aborted: StatusReasonCode.ABORTED_USER,
  cancelled: StatusReasonCode.CANCELLED_SYSTEM,
};

const USAGE_FIELDS: readonly (keyof SessionUsage)[] = ["inputTokens", "outputTokens", "totalCostUsd", "numTurns", "durationMs"];

/**
 * Marks a session row running with its provenance. Skips a missing row, a terminal one, and one
 * already started (so a repeat is harmless).
 */
export async function persistSessionStart(payload: Readonly<SessionStartPayload>): Promise<void> {
  const sessionId = requireField(payload, "sessionId", "persistSessionStart");
  const store = getSessionStateStore();
  const row = await store.getSession(sessionId);
  if (!row || TERMINAL_SESSION_STATUSES.has(row.status) || row.statusReasonCode === StatusReasonCode.STARTED_OK) return;
  const update: SessionUpdate = {
    status: "running",
    statusReasonCode: StatusReasonCode.STARTED_OK,
    startedAt: Date.now() / 1000,
  };
  for (const key of ["model", "provider", "effort", "agentName", "agentHash", "invocationId"] as const) {
    const value = payload[key];
    if (value !== null && value !== undefined) update[key] = redactionRules().redactText(String(value));
  }
  await store.updateSession(sessionId, update);
}

/**
 * Ends a session row: sets `endedAt`, merges `error` into `nodeMetadata`, writes the usage given
 * and moves to `status` (default "completed") with its reason code (unknown statuses get
 * FAILED_EXCEPTION). A row that is already terminal only gets the usage fields.
 */
export async function persistSessionEnd(payload: Readonly<SessionEndPayload>): Promise<void> {
  const sessionId = requireField(payload, "sessionId", "persistSessionEnd");
  const store = getSessionStateStore();
  const row = await store.getSession(sessionId);
  if (!row) return;
  const terminal = TERMINAL_SESSION_STATUSES.has(row.status);
  const update: SessionUpdate = {};
  if (!terminal) {
    update.endedAt = Date.now() / 1000;
    if (payload.error !== null && payload.error !== undefined) {
      update.nodeMetadata = { ...row.nodeMetadata, error: redactionRules().redactValue(toJsonSafe(payload.error)) as JsonObject[string] };
    }
  }
  for (const key of USAGE_FIELDS) {
    const value = payload[key];
    if (value !== null && value !== undefined) update[key] = value;
  }
  if (Object.keys(update).length === 0) return;
  if (terminal) {
    await store.updateSession(sessionId, update);
    return;
  }
  const status = payload.status ?? "completed";
  await store.updateSession(sessionId, {
    ...update,
    status,
    statusReasonCode: END_REASONS[status] ?? StatusReasonCode.FAILED_EXCEPTION,
  });
}

/** Records which model, provider and agent a branch runs with. */
export async function persistBranchProvenance(payload: Readonly<BranchProvenancePayload>): Promise<void> {
  const branchId = requireField(payload, "branchId", "persistBranchProvenance");
  await getSessionStateStore().updateBranch(branchId, {
    model: redactedText(payload.model),
    provider: redactedText(payload.provider),
    agentName: redactedText(payload.agentName),
  });
}

/**
 * Stores a message, appends it to the branch progression (and then the session progression)
 * when given, records a system message on its branch, and touches the session's activity time.
 * `sessionId` is required: the MESSAGE_ADD a Branch emits has none, so as a default MESSAGE_ADD
 * handler this throws, and the bus logs and swallows it.
 */
export async function persistMessage(payload: Readonly<PersistMessagePayload>): Promise<void> {
  const sessionId = requireField(payload, "sessionId", "persistMessage");
  const message = toRecord(requireField(payload, "message", "persistMessage"));
  const store = getSessionStateStore();
  await store.insertMessage(message);
  const progressionId = payload.branchProgressionId || payload.progressionId;
  if (progressionId) {
    await store.appendToProgression(progressionId, message.id);
    if (payload.sessionProgressionId) await store.appendToProgression(payload.sessionProgressionId, message.id);
  }
  if (message.role === "system" && payload.branchId) {
    await store.updateBranch(payload.branchId, { systemMsgId: message.id });
  }
  await store.touchSessionActivity(sessionId);
}

/** Logs an API call's model, provider, total tokens and latency. */
export async function logApiMetrics(payload: Readonly<ApiMetricsPayload>): Promise<void> {
  requireObject(payload, "logApiMetrics(payload)", "payload");
  const { model = null, provider = null, tokens = null, latencyMs = null } = payload;
  const message = tokens
    ? `api.post_call model=${model} provider=${provider} tokens=${tokens.total ?? null} latency_ms=${latencyMs}`
    : `api.post_call model=${model} provider=${provider} latency_ms=${latencyMs}`;
  getLogger().info(message);
}

/** Logs a tool call's name, action and argument names (never the argument values). */
export async function logToolCall(payload: Readonly<ToolCallLogPayload>): Promise<void> {
  const toolName = requireField(payload, "toolName", "logToolCall");
  const argNames = payload.args ? Object.keys(payload.args) : [];
  getLogger().info(`tool.pre tool=${toolName} action=${payload.action ?? null} args=${JSON.stringify(argNames)}`);
}

/** @deprecated Use {@link logToolCall}; this warns, then delegates to it. */
export async function logToolUse(payload: Readonly<ToolCallLogPayload>): Promise<void> {
  process.emitWarning("logToolUse is deprecated; register logToolCall instead", {
    type: "DeprecationWarning",
    code: "HOOKLENS_LOG_TOOL_USE",
  });
  await logToolCall(payload);
}

function requireField<P extends object, K extends keyof P & string>(payload: P, key: K, handler: string): NonNullable<P[K]> {
  requireObject(payload, `${handler}(payload)`, "payload");
  const value = payload[key];
  if (value === null || value === undefined) {
    throw new InvalidValueError(`${handler}() missing required payload field '${key}'`);
  }
  return value as NonNullable<P[K]>;
}

/**
 * The record a store gets: plain JSON data with the shared rules applied (content, metadata and
 * any other field), id and role kept as given so the store can still key and route it.
 */
function toRecord(message: Message | MessageRecord): MessageRecord {
  const { id, role } = message;
  const fields =
    message instanceof Message
      ? { id, role, sender: message.sender, recipient: message.recipient, content: message.content, createdAt: message.createdAt, metadata: message.metadata }
      : message;
  const redacted = redactionRules().redactValue(fields);
  const record = redacted !== null && typeof redacted === "object" && !Array.isArray(redacted) ? (redacted as Record<string, unknown>) : {};
  return { ...record, id, ...(role === undefined ? {} : { role }) };
}

function redactedText(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : redactionRules().redactText(String(value));
}
