const MASK = "[redacted]";
// Any bearer credential that may be echoed back in a body or message.
const BEARER = /(bearer\s+)[^\s"'`,;]+/gi;

/** Removes `secret` (and any bearer credential) from text that may reach an error or a log. */
export function redactSecret(text: string, secret: string | null): string {
  let out = text.replace(BEARER, `$1${MASK}`);
  if (secret) out = out.split(secret).join(MASK);
  return out;
}
