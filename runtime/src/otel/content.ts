import { DEFAULT_REDACT, redact } from "../middleware/redact.js";
import { redactValue } from "../shared/redaction/settings.js";

/** Characters of one exported content attribute; longer text is cut and marked. */
export const MAX_CONTENT_CHARS = 8_192;

/**
 * Argument, result or message content as one attribute value, redacted by the rules `LoggingHook`
 * applies to the arguments it logs: the runtime's shared rules (key names, token shapes, URL
 * credentials, and whatever `configureRedaction` added) plus its default key fragments
 * (`DEFAULT_REDACT`: a key containing `token` or `key` hides even a number), then JSON, cut to
 * {@link MAX_CONTENT_CHARS}. Only called when the user opted in to content capture.
 */
export function exportedContent(value: unknown): string {
  // The shared rules first (plain JSON data comes out), then the key fragments over that.
  const hidden = redact(redactValue(value), DEFAULT_REDACT);
  let text: string;
  try {
    text = typeof hidden === "string" ? hidden : (JSON.stringify(hidden) ?? "null");
  } catch {
    text = "[unserialisable]";
  }
  return text.length > MAX_CONTENT_CHARS ? `${text.slice(0, MAX_CONTENT_CHARS)}…[cut]` : text;
}
