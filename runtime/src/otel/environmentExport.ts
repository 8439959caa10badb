import { flushSignals } from "../index.js";
import { OpenTelemetrySink } from "./openTelemetrySink.js";
import { forceFlushGlobalProvider } from "./providerFlush.js";

/**
 * The sink `HOOKLENS_OTEL=1` sends every session to: spans go to the global tracer provider the
 * program's OpenTelemetry SDK registered. When the program runs out of work, the open spans end
 * (roots included) and the provider is asked to export them.
 */
export function startEnvironmentExport(): OpenTelemetrySink {
  const sink = new OpenTelemetrySink();
  let ending = false;
  process.on("beforeExit", () => {
    if (ending) return;
    ending = true;
    void (async () => {
      await flushSignals();
      sink.end();
      await forceFlushGlobalProvider();
      ending = false;
    })();
  });
  return sink;
}
