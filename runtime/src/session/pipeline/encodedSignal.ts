import { encodeSignalPayload, type JsonObject } from "../serialize.js";
import { describeValue } from "../../shared/arguments.js";
import { InvalidValueError } from "../../shared/errors.js";
import { Signal, signalKind } from "../signal.js";

/**
 * A signal serialised once, in a batch flush: every sink (the live stream, the databases, any
 * other) writes these same bytes, so `payloadJson` is computed exactly once per signal.
 */
export interface EncodedSignal {
  readonly id: string;
  /** The stable kind ({@link signalKind}), never a class name a bundler may have changed. */
  readonly kind: string;
  readonly branchId: string | null;
  /** The signal's `opId` field when it has one, otherwise `""`. */
  readonly opId: string;
  /** POSIX seconds the signal was created. */
  readonly createdAt: number;
  /** POSIX seconds it was recorded (queued by the observer). */
  readonly ts: number;
  /** The sanitised, capped payload as an object (the same value `payloadJson` encodes). */
  readonly payload: JsonObject;
  /** The sanitised, capped payload as compact JSON text. */
  readonly payloadJson: string;
  /**
   * The signal itself (absent for one read back from a store): a sink that needs a few fields
   * of a payload the byte cap replaced (a call's ids behind 20 KiB of arguments) reads them here.
   */
  readonly signal?: Signal;
}

/** Serialises one signal recorded at `ts`; never throws (an unserialisable signal is described instead). */
export function encodeSignal(signal: Signal, ts: number): EncodedSignal {
  if (!(signal instanceof Signal)) throw new InvalidValueError(`encodeSignal(signal, ts): signal must be a Signal, got ${describeValue(signal)}`);
  if (typeof ts !== "number") throw new InvalidValueError(`encodeSignal(signal, ts): ts (POSIX seconds) must be a number, got ${describeValue(ts)}`);
  const { payload, json } = encodeSignalPayload(signal);
  const branchId = signal.metadata?.["branchId"];
  return {
    id: signal.id,
    kind: signalKind(signal),
    branchId: typeof branchId === "string" ? branchId : null,
    opId: readOpId(signal),
    createdAt: signal.createdAt,
    ts,
    payload,
    payloadJson: json,
    signal,
  };
}

function readOpId(signal: Signal): string {
  const opId = (signal as Signal & { opId?: unknown }).opId;
  return typeof opId === "string" ? opId : "";
}
