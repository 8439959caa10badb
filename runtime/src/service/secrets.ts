import { hiddenStringsOf, isSecretKey, redactionRules, redactText } from "../shared/redaction/index.js";

/** The credentials written into a base URL (`https://user:key@host`), taken out of it. */
export interface UrlCredentials {
  /** The URL without `user:password@`. */
  url: string;
  /** base64 of `user:password` for a Basic Authorization header, or null when there were none. */
  basic: string | null;
  /** Every form in which they could be echoed: the password, `user:password`, and the base64. */
  secrets: string[];
}

/** Splits `user:password@` out of `url`; a URL that does not parse is returned as it is. */
export function credentialsOf(url: string): UrlCredentials {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url, basic: null, secrets: [] };
  }
  if (parsed.username === "" && parsed.password === "") return { url, basic: null, secrets: [] };
  const rawUser = parsed.username;
  const rawPassword = parsed.password;
  const user = safeDecode(rawUser);
  const password = safeDecode(rawPassword);
  const pair = `${user}:${password}`;
  const basic = Buffer.from(pair).toString("base64");
  parsed.username = "";
  parsed.password = "";
  // A token given as the user name alone (`https://TOKEN@host`) is the secret then.
  const secret = password === "" ? [user, rawUser] : [password, rawPassword];
  const secrets = [...secret, pair, `${rawUser}:${rawPassword}`, basic].filter((s) => s.length > 0);
  return { url: parsed.toString().replace(/\/+$/, ""), basic, secrets };
}

/**
 * What one endpoint must never let out: the key it was given (as given and trimmed), its URL
 * credentials, and the values of the secret-named headers it sends (`api-key`,
 * `x-api-key`, `authorization`…), configured ones and each call's extra ones.
 */
export class EndpointSecrets {
  readonly #fixed: readonly string[];

  constructor(literals: readonly (string | null | undefined)[], headers: Readonly<Record<string, string>>) {
    this.#fixed = [...literals.filter((s): s is string => typeof s === "string" && s.trim().length > 0), ...headerSecrets(headers)];
  }

  /**
   * The literal secrets of one call: the fixed ones, its extra headers', and the strings its
   * request hides by key (a server may quote the request back in any shape).
   */
  forCall(call: CallCredentials): string[] {
    const out = [...this.#fixed];
    if (call.extraHeaders) out.push(...headerSecrets(call.extraHeaders));
    if (call.request !== undefined) out.push(...hiddenStringsOf(call.request, redactionRules()));
    return out;
  }

  /** `text` with these secrets and everything the shared rules recognise masked. */
  redact(text: string, call: CallCredentials): string {
    return redactText(text, { secrets: this.forCall(call) });
  }
}

/** What one call adds to an endpoint's secrets. */
export interface CallCredentials {
  readonly extraHeaders?: Readonly<Record<string, string>> | null;
  readonly request?: unknown;
}

/** Values of secret-named headers, and the credential after an auth scheme (`Bearer x` → `x`). */
function headerSecrets(headers: Readonly<Record<string, string>>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== "string" || !isSecretKey(name)) continue;
    out.push(value);
    const scheme = /^\s*(?:bearer|basic|token|apikey)\s+(\S+)\s*$/i.exec(value);
    if (scheme?.[1]) out.push(scheme[1]);
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
