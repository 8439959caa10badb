/**
 * @hooklens/runtime/otel: a run's signals as OpenTelemetry traces. Needs `@opentelemetry/api`
 * (an optional peer dependency of the runtime, loaded only through this entry).
 */
export { exportToOpenTelemetry } from "./exportToOpenTelemetry.js";
export type { ExportOptions, ExportTarget, OpenTelemetryExport } from "./exportToOpenTelemetry.js";
export { OpenTelemetrySink, TRACER_NAME } from "./openTelemetrySink.js";
export type { OpenTelemetrySinkOptions } from "./openTelemetrySink.js";
export { forceFlushGlobalProvider } from "./providerFlush.js";
export { GEN_AI, GEN_AI_OPERATION, HOOKLENS } from "./attributes.js";
export { startEnvironmentExport } from "./environmentExport.js";
