import { getLogger } from "../../shared/log.js";
import type { Signal } from "../signal.js";
import { QueuedSignal } from "./encodedSignal.js";
import { signalSettings } from "./signalSettings.js";
import type { SinkTarget } from "./sink.js";

/**
 * The one path from `emit` to every sink. Recording a signal only appends it here; the batch is
 * serialised (once per signal, and only when one of its sinks needs the encoded payload) and
 * handed to its sinks at the end of the turn, or at once when it reaches the batch size, so a
 * loop that never yields a macrotask (`for … await emit(x)`) still flushes as it goes and holds
 * at most one batch. Signals still queued when the program runs out of work (`beforeExit`) or
 * exits are flushed first.
 */
class SignalPipeline {
  // The queue as three parallel arrays (no object per signal): the signal, when it was recorded,
  // and the sinks it goes to (an array shared by every signal of one observer).
  #signals: Signal[] = [];
  #times: number[] = [];
  #targets: Array<readonly SinkTarget[]> = [];
  #scheduled = false;
  #exitHooked = false;
  readonly #sinks = new Set<SinkTarget["sink"]>();

  enqueue(signal: Signal, targets: readonly SinkTarget[]): void {
    if (targets.length === 0) return;
    this.#signals.push(signal);
    this.#times.push(Date.now() / 1000);
    this.#targets.push(targets);
    if (this.#signals.length >= signalSettings().batchSize) {
      this.flushNow();
      return;
    }
    if (!this.#scheduled) {
      this.#scheduled = true;
      this.#hookExit();
      // Unref'd: a pending batch never keeps a finished program alive; beforeExit/exit flush it.
      setImmediate(this.#onTurn).unref();
    }
  }

  /** Signals recorded and not yet handed to their sinks. */
  get queued(): number {
    return this.#signals.length;
  }

  /** Serialises what is queued and hands it to the sinks, synchronously. */
  flushNow(): void {
    const signals = this.#signals;
    if (signals.length === 0) return;
    const times = this.#times;
    const targets = this.#targets;
    this.#signals = [];
    this.#times = [];
    this.#targets = [];
    const batches = new Map<SinkTarget, QueuedSignal[]>();
    for (let i = 0; i < signals.length; i++) {
      const queued = new QueuedSignal(signals[i]!, times[i]!);
      const signalTargets = targets[i]!;
      // Encoded here, in the flush, when a sink writes the payload; not at all when every sink
      // reads the signal itself (OpenTelemetry alone pays no JSON encoding or payload redaction).
      if (needPayload(signalTargets)) queued.encode();
      for (const target of signalTargets) {
        const batch = batches.get(target);
        if (batch) batch.push(queued);
        else batches.set(target, [queued]);
      }
    }
    for (const [target, batch] of batches) {
      this.#sinks.add(target.sink);
      try {
        target.sink.write(target.sessionId, batch);
      } catch (error) {
        getLogger().error({ err: error }, `A signal sink failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  /** Flushes, then waits until every sink that received signals has written them (or given them up). */
  async flush(): Promise<void> {
    this.flushNow();
    await Promise.all([...this.#sinks].map((sink) => sink.flush().catch(() => undefined)));
  }

  readonly #onTurn = (): void => {
    this.#scheduled = false;
    this.flushNow();
  };

  #hookExit(): void {
    if (this.#exitHooked) return;
    this.#exitHooked = true;
    // First in line: stores close themselves on exit and must see the last batch.
    process.prependListener("exit", () => this.flushNow());
    process.on("beforeExit", () => {
      if (this.#signals.length > 0) this.flushNow();
    });
  }
}

/** Whether any of these sinks reads the encoded payload (a sink that does not say reads it). */
function needPayload(targets: readonly SinkTarget[]): boolean {
  for (const target of targets) if (target.sink.needsPayload !== false) return true;
  return false;
}

const pipeline = new SignalPipeline();

/** Queues `signal` for `targets`; serialisation and I/O happen in the flush. */
export function recordSignal(signal: Signal, targets: readonly SinkTarget[]): void {
  pipeline.enqueue(signal, targets);
}

/** Hands every recorded signal to its sinks now and waits until they wrote it. */
export function flushSignals(): Promise<void> {
  return pipeline.flush();
}

/** Signals recorded but not yet flushed to their sinks. */
export function queuedSignals(): number {
  return pipeline.queued;
}
