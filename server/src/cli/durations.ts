/**
 * Durations as people read them: milliseconds with a precision that suits the size
 * (`0.082 ms`, `4.25 ms`, `37.1 ms`, `1250 ms`), never a float's full tail of digits.
 */
export function formatMs(ms: number): string {
  const size = Math.abs(ms);
  const decimals = size >= 100 ? 0 : size >= 10 ? 1 : size >= 1 ? 2 : 3;
  return `${ms.toFixed(decimals)} ms`;
}

/**
 * A `JSON.stringify` replacer for signal payloads shown to people: the runtime's `duration`
 * (seconds, as the tool scope reports it) and `durationMs` become `formatMs` strings.
 */
export function readableDurations(key: string, value: unknown): unknown {
  if (typeof value !== "number") return value;
  if (key === "duration") return formatMs(value * 1000);
  if (key === "durationMs") return formatMs(value);
  return value;
}
