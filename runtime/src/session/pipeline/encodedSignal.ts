import { encodeSignalJson, type JsonObject } from "../serialize.js";
import { describeValue } from "../../shared/arguments.js";
import { InvalidValueError } from "../../shared/errors.js";
import { Signal, signalKind } from "../signal.js";

/**
 * A signal as a batch flush hands it to the sinks (or as a store reads one back, without
 * `signal`). Its payload is serialised at most once: every sink that needs the encoded form (the
 * live stream, the databases) reads these same bytes, and a flush whose sinks all read the signal
 * itself (OpenTelemetry) never serialises it at all.
 */
export type EncodedSignal = Readonly<Pick<QueuedSignal, "id" | "kind" | "branchId" | "opId" | "createdAt" | "ts" | "payload" | "payloadJson">> & {
  /**
   * The signal itself (absent for one read back from a store): a sink that reads a few fields
   * rather than the payload (OpenTelemetry's ids, names and statuses) reads them here and redacts
   * what it passes on.
   */
  readonly signal?: Signal;
};

/**
 * A queued signal whose payload is encoded on first read (then kept): the pipeline reads it at
 * once, in the flush, when any of the signal's sinks needs the encoded form.
 */
export class QueuedSignal {
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
  readonly signal: Signal;
  /** Set by encode() when it built the object form, else parsed from the text on first read. */
  #payload: JsonObject | null = null;
  #payloadJson: string | undefined;

  constructor(signal: Signal, ts: number) {
    const branchId = signal.metadata?.["branchId"];
    this.id = signal.id;
    this.kind = signalKind(signal);
    this.branchId = typeof branchId === "string" ? branchId : null;
    this.opId = readOpId(signal);
    this.createdAt = signal.createdAt;
    this.ts = ts;
    this.signal = signal;
  }

  /** The sanitised, redacted, capped payload as an object (the same value `payloadJson` encodes). */
  get payload(): JsonObject {
    return (this.#payload ??= JSON.parse(this.payloadJson) as JsonObject);
  }

  /** The sanitised, redacted, capped payload as compact JSON text. */
  get payloadJson(): string {
    return this.#payloadJson ?? this.encode().#payloadJson!;
  }

  /** Serialises the payload now unless it already was; never throws. */
  encode(): this {
    if (this.#payloadJson !== undefined) return this;
    const { payload, json } = encodeSignalJson(this.signal);
    this.#payload = payload;
    this.#payloadJson = json;
    return this;
  }
}

/** Serialises one signal recorded at `ts`; never throws (an unserialisable signal is described instead). */
export function encodeSignal(signal: Signal, ts: number): EncodedSignal {
  if (!(signal instanceof Signal)) throw new InvalidValueError(`encodeSignal(signal, ts): signal must be a Signal, got ${describeValue(signal)}`);
  if (typeof ts !== "number") throw new InvalidValueError(`encodeSignal(signal, ts): ts (POSIX seconds) must be a number, got ${describeValue(ts)}`);
  return new QueuedSignal(signal, ts).encode();
}

function readOpId(signal: Signal): string {
  const opId = (signal as Signal & { opId?: unknown }).opId;
  return typeof opId === "string" ? opId : "";
}
