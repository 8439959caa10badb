/**
 * Which mapping keys, header names, query parameters and flags name a secret.
 *
 * Two strengths: a *strong* name (`password`, `apiKey`, `authorization`, …) hides any value; a
 * *weak* one (`auth`, `token`, `key`, `pass` as a whole word) hides text and containers but keeps
 * numbers and booleans, so `maxTokens: 100` or `pass: true` stay readable.
 */
export type KeyStrength = 0 | 1 | 2;
export const NOT_SECRET: KeyStrength = 0;
export const WEAK_SECRET: KeyStrength = 1;
export const STRONG_SECRET: KeyStrength = 2;

/** What a weak secret name leaves readable: numbers, booleans, null and undefined. */
export function isScalarValue(value: unknown): boolean {
  return typeof value === "number" || typeof value === "boolean" || value === null || value === undefined;
}

/** Matched anywhere in the key once it is lower-cased with every separator removed. */
export const SECRET_KEY_FRAGMENTS: readonly string[] = Object.freeze([
  "password",
  "passwd",
  "passphrase",
  "secret",
  "credential",
  "authorization",
  "authentication",
  "bearer",
  "jwt",
  "cookie",
  "apikey",
  "accesskey",
  "privatekey",
  "accesstoken",
  "refreshtoken",
  "authtoken",
  "idtoken",
  "sessiontoken",
  "xsrftoken",
  "csrftoken",
  "signingkey",
]);

/** Matched as whole words of the key (`x-auth-token` has the words x, auth, token). */
export const SECRET_KEY_WORDS: readonly string[] = Object.freeze(["auth", "oauth", "token", "key", "pass", "pwd", "creds", "sig", "dsn"]);

const WORDS = new Set(SECRET_KEY_WORDS);

/** Lower-case letters and digits only: `X-Api-Key`, `api_key` and `apiKey` all become `apikey`. */
export function compactKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** `xAuthToken`, `x-auth-token` and `X_AUTH_TOKEN` all give x, auth, token. */
function keyWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/);
}

/**
 * One pattern matching any strong fragment — the built-in ones and `extraFragments` (already
 * compacted) — in a compacted key: built once per rule set, so judging a key is one scan.
 */
export function strongFragmentMatcher(extraFragments: readonly string[]): RegExp {
  // Compacted fragments are letters and digits only: nothing to escape.
  return new RegExp([...SECRET_KEY_FRAGMENTS, ...extraFragments].join("|"));
}

const DEFAULT_STRONG = strongFragmentMatcher([]);

/** How strongly `name` marks its value as a secret, given the strong-fragment matcher of the rule set. */
export function keyStrength(name: string, strong: RegExp = DEFAULT_STRONG): KeyStrength {
  if (name.length === 0 || name.length > 256) return NOT_SECRET;
  if (strong.test(compactKey(name))) return STRONG_SECRET;
  for (const word of keyWords(name)) if (WORDS.has(word)) return WEAK_SECRET;
  return NOT_SECRET;
}
