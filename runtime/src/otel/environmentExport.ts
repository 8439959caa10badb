import { OpenTelemetrySink } from "./openTelemetrySink.js";
import { exportAtProgramEnd } from "./programEnd.js";

/**
 * The sink `HOOKLENS_OTEL=1` sends every session to: spans go to the global tracer provider the
 * program's OpenTelemetry SDK registered. When the program ends (runs out of work, gets SIGINT or
 * SIGTERM, or exits), the open spans end (roots included) and the provider is asked to export them.
 */
export function startEnvironmentExport(): OpenTelemetrySink {
  const sink = new OpenTelemetrySink();
  exportAtProgramEnd(sink);
  return sink;
}
