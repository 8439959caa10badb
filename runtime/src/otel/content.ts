import { redactValue } from "../index.js";

/** Characters of one exported content attribute; longer text is cut and marked. */
export const MAX_CONTENT_CHARS = 8_192;

/**
 * Argument, result or message content as one attribute value: redacted with the runtime's shared
 * redaction rules (the same every way out uses: key names, token shapes, URL credentials, and
 * whatever `configureRedaction` added), then JSON, cut to {@link MAX_CONTENT_CHARS}. Only called
 * when the user opted in to content capture.
 */
export function exportedContent(value: unknown): string {
  const hidden = redactValue(value);
  let text: string;
  try {
    text = typeof hidden === "string" ? hidden : (JSON.stringify(hidden) ?? "null");
  } catch {
    text = "[unserialisable]";
  }
  return text.length > MAX_CONTENT_CHARS ? `${text.slice(0, MAX_CONTENT_CHARS)}…[cut]` : text;
}
