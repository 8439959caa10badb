import { InvalidValueError } from "../shared/errors.js";
import type { OpenTelemetrySinkOptions } from "./openTelemetrySink.js";

/** The sink's options as a JavaScript caller may pass them: an object, and a tracer that can start spans. */
export function checkSinkOptions(options: OpenTelemetrySinkOptions, where: string): OpenTelemetrySinkOptions {
  if (options === null || typeof options !== "object" || Array.isArray(options)) throw new InvalidValueError(`${where}: options must be an object, got ${shown(options)}`);
  const tracer: unknown = options.tracer;
  if (tracer !== undefined && (tracer === null || typeof (tracer as { startSpan?: unknown }).startSpan !== "function")) {
    throw new InvalidValueError(`${where}: options.tracer must be an OpenTelemetry Tracer (with startSpan), got ${shown(tracer)}`);
  }
  return options;
}

/** A value for an error message: its class name for an object, its text for a primitive. */
export function shown(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return (value as { constructor?: { name?: string } }).constructor?.name ?? "an object";
  return typeof value === "string" ? JSON.stringify(value) : `${typeof value} ${String(value)}`;
}
