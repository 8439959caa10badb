import { getLogger } from "../../shared/log.js";
import { DropReport } from "./dropReport.js";
import type { EncodedSignal } from "./encodedSignal.js";
import type { SignalSink } from "./sink.js";

/** `HOOKLENS_OTEL=1` exports every session's signals to the global OpenTelemetry tracer provider. */
export const OTEL_ENV = "HOOKLENS_OTEL";
/** Signals held while the exporter loads; more are counted as dropped. */
const MAX_WAITING_SIGNALS = 100_000;

/** undefined: not looked up yet; null: the variable is not set. */
let sink: DeferredSink | null | undefined;

/** The process's OpenTelemetry sink when {@link OTEL_ENV} is on (`1`, `true`, `on`, `yes`); null otherwise. */
export function otelEnvironmentSink(): SignalSink | null {
  if (sink === undefined) sink = isOn(process.env[OTEL_ENV]) ? new DeferredSink() : null;
  return sink;
}

/** Test hook: forget the sink so the next signal reads {@link OTEL_ENV} again. */
export function resetOtelEnvironmentForTests(): void {
  sink = undefined;
}

function isOn(value: string | undefined): boolean {
  return value !== undefined && ["1", "true", "on", "yes"].includes(value.trim().toLowerCase());
}

/**
 * Loads `@hooklens/runtime/otel` (and with it `@opentelemetry/api`) on first use, and holds the
 * batches written meanwhile. The main entry never imports the OpenTelemetry API itself: only a
 * program that asks for the export pays for it, and one without the package gets one log line.
 */
class DeferredSink implements SignalSink {
  /** Its target, the OpenTelemetry sink, reads the signals themselves (see SignalSink.needsPayload). */
  readonly needsPayload = false;
  #target: SignalSink | null = null;
  #failed = false;
  #waiting: Array<{ sessionId: string; batch: readonly EncodedSignal[] }> = [];
  #waitingCount = 0;
  readonly #report = new DropReport("OpenTelemetry (HOOKLENS_OTEL)");
  readonly #loading: Promise<void>;

  constructor() {
    this.#loading = import("../../otel/index.js").then(
      (otel) => {
        this.#target = otel.startEnvironmentExport();
        const waiting = this.#waiting;
        this.#waiting = [];
        this.#waitingCount = 0;
        for (const { sessionId, batch } of waiting) this.#target.write(sessionId, batch);
      },
      (error: unknown) => {
        this.#failed = true;
        this.#report.count(this.#waitingCount, error);
        this.#waiting = [];
        getLogger().error(
          { err: error },
          `${OTEL_ENV} is set but the OpenTelemetry export could not start (is @opentelemetry/api installed?): ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    );
  }

  write(sessionId: string, batch: readonly EncodedSignal[]): void {
    if (this.#target) return this.#target.write(sessionId, batch);
    if (this.#failed) return;
    if (this.#waitingCount + batch.length > MAX_WAITING_SIGNALS) {
      this.#report.count(batch.length, new Error("the OpenTelemetry exporter was still loading"));
      this.#report.report();
      return;
    }
    this.#waiting.push({ sessionId, batch });
    this.#waitingCount += batch.length;
  }

  async flush(): Promise<void> {
    await this.#loading;
    await this.#target?.flush();
  }
}
