import { randomUUID } from "node:crypto";
import type { HookPoint } from "./hookPoint.js";

export const SIGNAL_SCHEMA_VERSION = 1;

export interface SignalInit<T> {
  data?: T;
  emitterRole?: string | null;
  metadata?: Record<string, unknown>;
  id?: string;
  createdAt?: number;
}

/**
 * The envelope the SessionObserver records. Two signals are equal when their ids are.
 * `createdAt` is POSIX seconds (a float), as in the Python original.
 */
export class Signal<T = unknown> {
  readonly id: string;
  readonly createdAt: number;
  metadata: Record<string, unknown>;
  data: T;
  emitterRole: string | null;
  readonly schemaVersion: number = SIGNAL_SCHEMA_VERSION;

  constructor(init: SignalInit<T> = {}) {
    this.id = init.id ?? randomUUID();
    this.createdAt = init.createdAt ?? Date.now() / 1000;
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
  readonly point: `${HookPoint}` | null;
  readonly payload: Record<string, unknown>;

  constructor(point: HookPoint | `${HookPoint}` | null, payload: Record<string, unknown> = {}, init: SignalInit<null> = {}) {
    super(init);
    this.point = point;
    this.payload = { ...payload };
  }
}

/** A message was added to a Branch; `data` is the message. */
export class MessageAdded<M = unknown> extends Signal<M> {}

/** The observer's gate denied an action; `data` is the action. */
export class GateDenied<A = unknown> extends Signal<A> {}
