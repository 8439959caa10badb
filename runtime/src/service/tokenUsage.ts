/**
 * Token counts a provider reported. Read from `usage.prompt_tokens` / `completion_tokens` /
 * `total_tokens` (OpenAI chat), or `usage.input_tokens` / `output_tokens` (Responses-style and
 * Anthropic-style APIs). `totalTokens` is the reported total, or the sum when none is reported.
 */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** The usage a response or stream chunk carries, or null (a missing report is never zero usage). */
export function readTokenUsage(responseOrChunk: unknown): TokenUsage | null {
  if (typeof responseOrChunk !== "object" || responseOrChunk === null) return null;
  const usage = (responseOrChunk as { usage?: unknown }).usage;
  if (typeof usage !== "object" || usage === null) return null;
  const fields = usage as Record<string, unknown>;
  const prompt = count(fields["prompt_tokens"]) ?? count(fields["input_tokens"]);
  const completion = count(fields["completion_tokens"]) ?? count(fields["output_tokens"]);
  if (prompt === null && completion === null) return null;
  const promptTokens = prompt ?? 0;
  const completionTokens = completion ?? 0;
  return { promptTokens, completionTokens, totalTokens: count(fields["total_tokens"]) ?? promptTokens + completionTokens };
}

function count(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
}
