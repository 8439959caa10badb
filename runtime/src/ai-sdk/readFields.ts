/**
 * Readers of the AI SDK's values that work across its versions: finish reasons are strings (v5) or
 * `{ unified, raw }` (v6, v7); token counts are numbers (v5) or `{ total }` (v6, v7). Plain
 * property reads only, never a throw: a value the SDK did not send reads as null.
 */

export function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : null;
}

export function stringOf(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** A finish reason as a string: `"stop"`, or the unified reason of `{ unified, raw }`. */
export function finishReasonOf(value: unknown): string | null {
  if (typeof value === "string") return value;
  return stringOf(record(value)?.["unified"]);
}

/** A token count: a number, or the `total` of `{ total, … }`. */
export function tokenCountOf(value: unknown): number | null {
  if (typeof value === "number") return value;
  const total = record(value)?.["total"];
  return typeof total === "number" ? total : null;
}

export interface UsageCounts {
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
}

export function usageOf(value: unknown): UsageCounts {
  const usage = record(value);
  return { inputTokens: tokenCountOf(usage?.["inputTokens"]), outputTokens: tokenCountOf(usage?.["outputTokens"]) };
}

/** A tool call as recorded: its name, id and input (a JSON string from the model). */
export interface RecordedToolCall {
  readonly toolName: string | null;
  readonly toolCallId: string | null;
  readonly input: unknown;
}

export function toolCallOf(part: Record<string, unknown>): RecordedToolCall {
  return { toolName: stringOf(part["toolName"]), toolCallId: stringOf(part["toolCallId"]), input: part["input"] ?? part["args"] ?? null };
}

/** The tool calls in a generate result's `content` parts. */
export function toolCallsIn(content: unknown): RecordedToolCall[] {
  const calls: RecordedToolCall[] = [];
  if (!Array.isArray(content)) return calls;
  for (const part of content) {
    const fields = record(part);
    if (fields?.["type"] === "tool-call") calls.push(toolCallOf(fields));
  }
  return calls;
}

/** The names of the tools a call offers: an array of `{ name }` (model params) or a tool set keyed by name. */
export function toolNamesOf(tools: unknown): string[] | null {
  if (Array.isArray(tools)) return tools.map((tool) => stringOf(record(tool)?.["name"]) ?? "?");
  const set = record(tools);
  return set ? Object.keys(set) : null;
}

/**
 * What a model call's params record: every option but the abort signal, with the tools reduced
 * to their names (their schemas are the program's code, not the call's data). Redaction and the
 * size bound apply later, in the signal pipeline, as for every signal.
 */
export function requestOf(params: unknown): Record<string, unknown> | null {
  const fields = record(params);
  if (!fields) return null;
  const request: Record<string, unknown> = {};
  for (const key in fields) {
    if (key === "abortSignal") continue;
    const value = fields[key];
    if (value === undefined) continue;
    request[key] = key === "tools" ? toolNamesOf(value) : value;
  }
  return request;
}
