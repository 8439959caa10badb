/**
 * A seeded generator of payloads with secrets planted in every form the redaction rules promise
 * to catch: values under secret key names, `Bearer …`, `sk-…` tokens, URL credentials and query
 * tokens, header pairs as arrays, Maps, Sets, errors, command strings, JSON text and env lines,
 * embedded in prose and nested at random depths. Each case says which secret strings it planted;
 * a sink leaks when any of them (or a 10-character piece of one) shows up in its output.
 */

/** mulberry32: a small, fast, seeded PRNG, so a failing case can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface PlantedCase {
  /** What was planted and how, for a failure message. */
  readonly form: string;
  /** The value to send through a sink. */
  readonly value: unknown;
  /** The secret strings that must not come out. */
  readonly secrets: readonly string[];
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const SECRET_KEYS = [
  "apiKey",
  "api_key",
  "x-api-key",
  "API-KEY",
  "password",
  "passwd",
  "dbPassword",
  "auth",
  "authorization",
  "credentials",
  "bearer",
  "jwt",
  "secret",
  "client_secret",
  "access_token",
  "refreshToken",
  "cookie",
  "privateKey",
];
const QUERY_NAMES = ["access_token", "token", "api_key", "apikey", "key", "sig", "password", "client_secret", "auth"];
const NEUTRAL_KEYS = ["data", "items", "detail", "payload", "context", "note", "args"];

type Form = (secret: string, pick: <T>(list: readonly T[]) => T) => unknown;

/** Every form, by name. Each returns a value that carries `secret`. */
const FORMS: Record<string, Form> = {
  "secret key name": (s, pick) => ({ [pick(SECRET_KEYS)]: s }),
  "secret key name over an object": (s, pick) => ({ [pick(["credentials", "auth", "secret"])]: { user: "u", value: s } }),
  "Bearer in prose": (s) => `the call used Bearer ${s} and failed`,
  "sk- token in prose": (s) => `configured with sk-${s} yesterday`,
  "sk-proj token alone": (s) => `sk-proj-${s}`,
  "URL credentials": (s) => `https://deploy:${s}@registry.example.com/v2/`,
  "URL token-only credentials": (s) => `see postgres://app:${s}@db.internal:5432/main for details`,
  "URL query token": (s, pick) => `https://api.example.com/items?page=2&${pick(QUERY_NAMES)}=${s}&sort=asc`,
  "header pairs as arrays": (s) => [
    ["Authorization", `Bearer ${s}`],
    ["accept", "application/json"],
  ],
  "raw header list": (s, pick) => ["Host", "api.example.com", pick(["X-Api-Key", "Authorization", "Cookie"]), s, "accept", "json"],
  "header object": (s, pick) => ({ headers: { [pick(["Authorization", "x-api-key", "api-key", "Cookie", "Proxy-Authorization"])]: s } }),
  "Map keyed by secret name": (s, pick) =>
    new Map<string, unknown>([
      ["topic", "returns"],
      [pick(SECRET_KEYS), s],
    ]),
  "Set of bearer strings": (s) => new Set([`Bearer ${s}`, "plain"]),
  "Error message with token=": (s) => new Error(`request failed: token=${s}`),
  "Error message with Bearer": (s) => new TypeError(`upstream refused Authorization: Bearer ${s}`),
  "curl command": (s) => `curl -s -H "Authorization: Bearer ${s}" https://api.example.com`,
  "flag with a space": (s, pick) => `mysql -u root ${pick(["--password", "--token", "--api-key"])} ${s} -h db`,
  "flag with =": (s, pick) => `deploy ${pick(["--password", "--token", "--api-key", "--secret"])}=${s} --region eu`,
  "argv array": (s, pick) => ["deploy", pick(["--password", "--token", "--api-key"]), s, "--verbose"],
  "JSON text": (s, pick) => JSON.stringify({ user: "ada", [pick(SECRET_KEYS)]: s }),
  "env line": (s, pick) => `${pick(["OPENAI_API_KEY", "GITHUB_TOKEN", "DB_PASSWORD", "AWS_SECRET_ACCESS_KEY"])}=${s}`,
  "header line": (s, pick) => `${pick(["Authorization: Bearer", "x-api-key:", "Cookie: session="])} ${s}`,
};

export const FORM_NAMES: readonly string[] = Object.keys(FORMS);

/** A random secret body: letters and digits only, so only the rules (not odd characters) can find it. */
function secretBody(random: () => number): string {
  const length = 20 + Math.floor(random() * 16);
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[Math.floor(random() * ALPHANUMERIC.length)];
  return out;
}

/** `count` cases from `seed`, cycling through every form and nesting each at a random depth (0–6). */
export function plantedCases(seed: number, count: number): PlantedCase[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const cases: PlantedCase[] = [];
  for (let i = 0; i < count; i++) {
    const form = FORM_NAMES[i % FORM_NAMES.length]!;
    const secret = secretBody(random);
    let value = FORMS[form]!(secret, pick);
    const depth = Math.floor(random() * 7);
    for (let d = 0; d < depth; d++) value = random() < 0.3 ? [value] : { [pick(NEUTRAL_KEYS)]: value, index: d };
    cases.push({ form: `${form} at depth ${depth} (seed ${seed}, case ${i})`, value, secrets: [secret] });
  }
  return cases;
}

/** The planted secrets (or 10-character pieces of them) found in `output`, with the case that planted each. */
export function leaksIn(output: string, cases: readonly PlantedCase[]): string[] {
  const found: string[] = [];
  for (const c of cases) {
    for (const secret of c.secrets) {
      if (output.includes(secret) || output.includes(secret.slice(0, 10)) || output.includes(secret.slice(-10)))
        found.push(`${c.form}: ${secret}`);
    }
  }
  return found;
}
