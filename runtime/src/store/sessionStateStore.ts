import type { JsonObject } from "../session/serialize.js";
import { requireObject } from "../shared/arguments.js";

/** Why a session is in its status; the built-in persistence handlers write these. */
export enum StatusReasonCode {
  STARTED_OK = "STARTED_OK",
  COMPLETED_OK = "COMPLETED_OK",
  FAILED_EXCEPTION = "FAILED_EXCEPTION",
  TIMED_OUT_DEADLINE = "TIMED_OUT_DEADLINE",
  ABORTED_USER = "ABORTED_USER",
  CANCELLED_SYSTEM = "CANCELLED_SYSTEM",
}

/** Statuses a session does not leave: session-start handling skips them, session-end writes only usage. */
export const TERMINAL_SESSION_STATUSES: ReadonlySet<string> = new Set([
  "completed",
  "failed",
  "timed_out",
  "aborted",
  "cancelled",
]);

/** The usage a session end may report. */
export interface SessionUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  totalCostUsd: number | null;
  numTurns: number | null;
  durationMs: number | null;
}

/** One session row of the state store. */
export interface SessionRecord extends SessionUsage {
  id: string;
  status: string;
  statusReasonCode: StatusReasonCode | null;
  model: string | null;
  provider: string | null;
  effort: string | null;
  agentName: string | null;
  agentHash: string | null;
  invocationId: string | null;
  startedAt: number | null;
  endedAt: number | null;
  lastActivityAt: number | null;
  nodeMetadata: JsonObject;
}

export type SessionUpdate = Partial<Omit<SessionRecord, "id">>;

/** One branch row; `systemMsgId` is the branch's system message. */
export interface BranchRecord {
  id: string;
  model: string | null;
  provider: string | null;
  agentName: string | null;
  systemMsgId: string | null;
}

/** Fields to set on a branch row; null and undefined fields are left as they are. */
export type BranchUpdate = Partial<Omit<BranchRecord, "id">>;

/** A stored message: any JSON-ish record with an id. */
export interface MessageRecord {
  id: string;
  role?: string;
  [field: string]: unknown;
}

type MaybePromise<T> = T | Promise<T>;

/** What the built-in Session persistence handlers need from a state database. */
export interface SessionStateStore {
  getSession(sessionId: string): MaybePromise<SessionRecord | undefined>;
  updateSession(sessionId: string, update: SessionUpdate): MaybePromise<void>;
  updateBranch(branchId: string, update: BranchUpdate): MaybePromise<void>;
  insertMessage(message: MessageRecord): MaybePromise<void>;
  appendToProgression(progressionId: string, messageId: string): MaybePromise<void>;
  touchSessionActivity(sessionId: string): MaybePromise<void>;
}

/** A SessionStateStore in memory. Sessions must be created (`createSession`) before handlers can update them. */
export class InMemorySessionStateStore implements SessionStateStore {
  readonly sessions = new Map<string, SessionRecord>();
  readonly branches = new Map<string, BranchRecord>();
  readonly messages = new Map<string, MessageRecord>();
  readonly progressions = new Map<string, string[]>();

  /** Adds a session row (status `"pending"` unless given) and returns it. */
  createSession(id: string, fields: SessionUpdate = {}): SessionRecord {
    const record: SessionRecord = {
      id,
      status: "pending",
      statusReasonCode: null,
      model: null,
      provider: null,
      effort: null,
      agentName: null,
      agentHash: null,
      invocationId: null,
      startedAt: null,
      endedAt: null,
      lastActivityAt: null,
      nodeMetadata: {},
      inputTokens: null,
      outputTokens: null,
      totalCostUsd: null,
      numTurns: null,
      durationMs: null,
      ...fields,
    };
    this.sessions.set(id, record);
    return record;
  }

  getSession(sessionId: string): SessionRecord | undefined {
    return this.sessions.get(sessionId);
  }

  updateSession(sessionId: string, update: SessionUpdate): void {
    const record = this.sessions.get(sessionId);
    if (record) Object.assign(record, update);
  }

  updateBranch(branchId: string, update: BranchUpdate): void {
    const record = this.branches.get(branchId) ?? {
      id: branchId,
      model: null,
      provider: null,
      agentName: null,
      systemMsgId: null,
    };
    for (const [key, value] of Object.entries(update) as [keyof BranchUpdate, string | null | undefined][]) {
      if (value !== null && value !== undefined) record[key] = value;
    }
    this.branches.set(branchId, record);
  }

  insertMessage(message: MessageRecord): void {
    this.messages.set(message.id, message);
  }

  appendToProgression(progressionId: string, messageId: string): void {
    const list = this.progressions.get(progressionId);
    if (list) list.push(messageId);
    else this.progressions.set(progressionId, [messageId]);
  }

  touchSessionActivity(sessionId: string): void {
    const record = this.sessions.get(sessionId);
    if (record) record.lastActivityAt = Date.now() / 1000;
  }
}

let sharedStore: SessionStateStore = new InMemorySessionStateStore();

/** The state store the built-in persistence handlers use (an in-memory one until replaced). */
export function getSessionStateStore(): SessionStateStore {
  return sharedStore;
}

/** Replaces the shared state store; returns the previous one. */
export function setSessionStateStore(store: SessionStateStore): SessionStateStore {
  requireObject(store, "setSessionStateStore(store)", "store (a SessionStateStore)");
  const previous = sharedStore;
  sharedStore = store;
  return previous;
}
