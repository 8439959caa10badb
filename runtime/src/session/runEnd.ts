import { describeValue, optionsObject, requireArray, requireObject } from "../shared/arguments.js";
import { InvalidValueError } from "../shared/errors.js";
import type { Message } from "./message.js";
import { RunEnd } from "./signal.js";

/** Spellings providers use for the same usage figure. */
const INPUT_KEYS = ["input_tokens", "inputTokens", "prompt_tokens", "promptTokens"] as const;
const OUTPUT_KEYS = ["output_tokens", "outputTokens", "completion_tokens", "completionTokens"] as const;
const COST_KEYS = ["total_cost_usd", "totalCostUsd"] as const;

/**
 * The RunEnd for a finished run: `data` is its result; token usage is summed over the
 * `metadata.modelResponse` of every message (its `usage` object, or the response itself),
 * accepting both the input/output and the prompt/completion spellings. `numTurns` counts the
 * messages that carry a model response.
 */
export function buildRunEnd<T>(
  source: { readonly messages: readonly Message[] },
  options: { durationMs?: number; result?: T } = {},
): RunEnd<T> {
  const where = "buildRunEnd(source, options)";
  requireObject(source, where, "source (a Branch, or { messages })");
  requireArray(source.messages, where, "source.messages");
  options = optionsObject(options, where);
  let inputTokens = 0;
  let outputTokens = 0;
  let totalCostUsd = 0;
  let numTurns = 0;
  for (const message of source.messages) {
    if (typeof message?.metadata !== "object" || message.metadata === null) {
      throw new InvalidValueError(`${where}: each of source.messages must be a Message (with metadata), got ${describeValue(message)}`);
    }
    const response = asRecord(message.metadata["modelResponse"] ?? message.metadata["model_response"]);
    if (!response) continue;
    numTurns++;
    const usage = asRecord(response["usage"]) ?? response;
    inputTokens += firstNumber(usage, INPUT_KEYS);
    outputTokens += firstNumber(usage, OUTPUT_KEYS);
    totalCostUsd += firstNumber(usage, COST_KEYS) || firstNumber(response, COST_KEYS);
  }
  return new RunEnd<T>({
    data: options.result as T,
    inputTokens,
    outputTokens,
    totalCostUsd,
    numTurns,
    durationMs: options.durationMs ?? 0,
  });
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function firstNumber(record: Record<string, unknown>, keys: readonly string[]): number {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === "number" && Number.isFinite(value)) return value;
  }
  return 0;
}
