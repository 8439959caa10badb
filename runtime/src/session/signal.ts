import { InvalidValueError } from "../shared/errors.js";
import type { HookPoint } from "./hookPoint.js";
import { describeValue, requireObject } from "../shared/arguments.js";
import { newId } from "../shared/ids.js";
import type { SignalMaker } from "../signals/signalRecorder.js";

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
 * What a {@link Flow} reads and writes on a signal to keep its once-each rule without an id index
 * (see flow.ts). Runtime-internal; set by the Signal class itself.
 */
export interface KeepMarks {
  /**
   * Marks `signal` as kept by `flow` under `number` when the flow can tell without an id index
   * that it keeps no signal with this id: the constructor made the id (a random UUID no other
   * signal has) and no other flow kept the signal since, and this flow does not still keep it
   * (it does while the number it was kept under is at least `oldestKept`). One call per add: the
   * emit path adds every signal.
   */
  claim(signal: Signal, flow: object, number: number, oldestKept: number): ClaimOutcome;
  mark(signal: Signal, flow: object, number: number): void;
}

/** What {@link KeepMarks.claim} did: marked (the flow keeps it now under the number given)… */
export const CLAIMED = 0;
/** …not marked: the flow already keeps this very signal… */
export const ALREADY_KEPT = 1;
/** …not marked: only an id index can tell (a caller-chosen id, or a signal another flow kept). */
export const NEEDS_INDEX = 2;
export type ClaimOutcome = typeof CLAIMED | typeof ALREADY_KEPT | typeof NEEDS_INDEX;

/** Assigned once, by Signal's static block (only the class can reach its private fields). */
export let keepMarks: KeepMarks;

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
  // Declared, not defined as class fields: a signal is made per emit, and plain assignments in
  // the constructor cost less than field definitions. Their order is the payload's key order.
  declare readonly id: string;
  declare readonly createdAt: number;
  declare metadata: Record<string, unknown>;
  declare data: T;
  declare emitterRole: string | null;
  declare readonly schemaVersion: number;
  // Private, so invisible to Object.keys, JSON and equality checks: which Flow keeps this signal,
  // and the number it was added under there (-1 before any flow kept it when the constructor
  // made its id, -2 when the caller chose the id).
  #keptBy: object | null = null;
  #keptAs: number;

  static {
    keepMarks = {
      claim: (signal, flow, number, oldestKept) => {
        if (!(#keptAs in signal)) return NEEDS_INDEX;
        const keptBy = signal.#keptBy;
        if (keptBy === null ? signal.#keptAs !== -1 : keptBy !== flow) return NEEDS_INDEX;
        if (keptBy === flow && signal.#keptAs >= oldestKept) return ALREADY_KEPT;
        signal.#keptBy = flow;
        signal.#keptAs = number;
        return CLAIMED;
      },
      mark: (signal, flow, number) => {
        if (!(#keptAs in signal)) return;
        signal.#keptBy = flow;
        signal.#keptAs = number;
      },
    };
  }

  constructor(init: SignalInit<T> = {}) {
    // Inline test first: signals are made per emit, and the message is built only on failure.
    if (typeof init !== "object" || init === null) requireObject(init, `new ${new.target.name}(init)`, "init");
    this.#keptAs = init.id === undefined ? -1 : -2;
    this.id = init.id ?? newId();
    this.createdAt = init.createdAt === undefined ? Date.now() / 1000 : toEpochSeconds(init.createdAt);
    this.metadata = init.metadata ?? {};
    this.data = init.data as T;
    this.emitterRole = init.emitterRole ?? null;
    this.schemaVersion = SIGNAL_SCHEMA_VERSION;
  }

  equals(other: unknown): boolean {
    return other instanceof Signal && other.id === this.id;
  }
}

/** What a HookBus records after a successful chain: the point (as its string value) and a copy of the payload. */
export class HookSignal extends Signal<null> {
  static override readonly kind: string = "HookSignal";
  declare readonly point: `${HookPoint}` | null;
  declare readonly payload: Record<string, unknown>;

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
  declare inputTokens: number;
  declare outputTokens: number;
  declare totalCostUsd: number;
  declare numTurns: number;
  declare durationMs: number;

  constructor(init: SignalInit<T> & Partial<RunUsage> = {}) {
    super(init);
    this.inputTokens = init.inputTokens ?? 0;
    this.outputTokens = init.outputTokens ?? 0;
    this.totalCostUsd = init.totalCostUsd ?? 0;
    this.numTurns = init.numTurns ?? 0;
    this.durationMs = init.durationMs ?? 0;
  }
}

/** The init of a signal built by a {@link SignalMaker}: its time, and the branch it is tagged with. */
export function madeInit(branchId: string | undefined, createdAt: number | undefined): SignalInit<never> {
  return { createdAt, metadata: branchId === undefined ? undefined : { branchId } };
}

/** @internal `event` (not a Signal) recorded as a Signal's data, as {@link asSignal} wraps it. */
export const SIGNAL_OF_DATA: SignalMaker<unknown> = {
  event: (data) => data,
  build: (data, branchId, createdAt) => new Signal({ ...madeInit(branchId, createdAt), data }),
};

/** @internal A MessageAdded for a message, as a Branch records it. */
export const MESSAGE_ADDED: SignalMaker<unknown> = {
  event: (message) => new MessageAdded({ data: message }),
  build: (message, branchId, createdAt) => new MessageAdded({ ...madeInit(branchId, createdAt), data: message }),
};

/** `event` as an observer records it: a Signal as it is, anything else as a new Signal's data. */
export function asSignal(event: unknown): Signal {
  return event instanceof Signal ? event : new Signal({ data: event });
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
