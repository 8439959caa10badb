import { randomUUID } from "node:crypto";
import { InvalidValueError } from "../shared/errors.js";
import type { HookPoint } from "./hookPoint.js";
import { describeValue, requireObject } from "../shared/arguments.js";

export const SIGNAL_SCHEMA_VERSION = 1;

export interface SignalInit<T> {
  data?: T;
  emitterRole?: string | null;
  metadata?: Record<string, unknown>;
  id?: string;
  /** POSIX seconds, a Date, an ISO-8601 string or a numeric string; defaults to now. */
  createdAt?: number | Date | string;
}

/**
 * The envelope the SessionObserver records. Two signals are equal when their ids are.
 * `createdAt` is POSIX seconds (a float), as in the Python original.
 */
export class Signal<T = unknown> {
  /**
   * The stable name a signal is persisted and streamed under. Every runtime class sets its own,
   * because bundlers rename classes; a subclass without one is known by its class name.
   */
  static readonly kind: string = "Signal";
  readonly id: string;
  readonly createdAt: number;
  metadata: Record<string, unknown>;
  data: T;
  emitterRole: string | null;
  readonly schemaVersion: number = SIGNAL_SCHEMA_VERSION;

  constructor(init: SignalInit<T> = {}) {
    // Inline test first: signals are made per emit, and the message is built only on failure.
    if (typeof init !== "object" || init === null) requireObject(init, `new ${new.target.name}(init)`, "init");
    this.id = init.id ?? randomUUID();
    this.createdAt = init.createdAt === undefined ? Date.now() / 1000 : toEpochSeconds(init.createdAt);
    this.metadata = init.metadata ?? {};
    this.data = init.data as T;
    this.emitterRole = init.emitterRole ?? null;
  }

  equals(other: unknown): boolean {
    return other instanceof Signal && other.id === this.id;
  }
}

/** What a HookBus records after a successful chain: the point (as its string value) and a copy of the payload. */
export class HookSignal extends Signal<null> {
  static override readonly kind: string = "HookSignal";
  readonly point: `${HookPoint}` | null;
  readonly payload: Record<string, unknown>;

  constructor(point: HookPoint | `${HookPoint}` | null, payload: Record<string, unknown> = {}, init: SignalInit<null> = {}) {
    super(init);
    if (point !== null && typeof point !== "string") invalidPoint(point);
    if (typeof payload !== "object" || payload === null) requireObject(payload, "new HookSignal(point, payload, init)", "payload");
    this.point = point;
    this.payload = { ...payload };
  }
}

/** A message was added to a Branch; `data` is the message. */
export class MessageAdded<M = unknown> extends Signal<M> {
  static override readonly kind: string = "MessageAdded";
}

/** The observer's gate denied an action; `data` is the action. */
export class GateDenied<A = unknown> extends Signal<A> {
  static override readonly kind: string = "GateDenied";
}

/** A run of an observed Branch operation started. */
export class RunStart<T = unknown> extends Signal<T> {
  static override readonly kind: string = "RunStart";
}

/** A run failed; `data` is the error it failed with. */
export class RunFailed<E = unknown> extends Signal<E> {
  static override readonly kind: string = "RunFailed";
}

/** Token and cost usage a finished run reports. */
export interface RunUsage {
  inputTokens: number;
  outputTokens: number;
  totalCostUsd: number;
  numTurns: number;
  durationMs: number;
}

/** A run finished; `data` is its result and the usage fields sum what the run's messages report. */
export class RunEnd<T = unknown> extends Signal<T> implements RunUsage {
  static override readonly kind: string = "RunEnd";
  inputTokens: number;
  outputTokens: number;
  totalCostUsd: number;
  numTurns: number;
  durationMs: number;

  constructor(init: SignalInit<T> & Partial<RunUsage> = {}) {
    super(init);
    this.inputTokens = init.inputTokens ?? 0;
    this.outputTokens = init.outputTokens ?? 0;
    this.totalCostUsd = init.totalCostUsd ?? 0;
    this.numTurns = init.numTurns ?? 0;
    this.durationMs = init.durationMs ?? 0;
  }
}

/**
 * The kind a signal is recorded as: its class's own static `kind`, else (a user's subclass that
 * declares none) its class name, else the nearest declared kind up the chain.
 */
export function signalKind(signal: Signal): string {
  if (!(signal instanceof Signal)) throw new InvalidValueError(`signalKind(signal): signal must be a Signal, got ${describeValue(signal)}`);
  const type = signal.constructor as typeof Signal;
  if (Object.hasOwn(type, "kind")) return type.kind;
  return type.name || type.kind || "Signal";
}

function toEpochSeconds(value: number | Date | string): number {
  if (typeof value === "number") return value;
  if (value instanceof Date) return value.getTime() / 1000;
  const numeric = Number(value);
  if (value.trim() !== "" && Number.isFinite(numeric)) return numeric;
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed)) throw new InvalidValueError(`createdAt is not a timestamp: ${JSON.stringify(value)}`);
  return parsed / 1000;
}

function invalidPoint(point: unknown): never {
  throw new InvalidValueError(`new HookSignal(point, payload, init): point must be a hook point value or null, got ${describeValue(point)}`);
}
