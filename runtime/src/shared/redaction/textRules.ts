import { NOT_SECRET, STRONG_SECRET, type KeyStrength } from "./keyNames.js";

/** What a hidden secret becomes in text and in data. */
export const REDACTION_MASK = "[redacted]";

/** The parts of the rule set the text rules need. */
export interface TextRuleContext {
  strengthOf(name: string): KeyStrength;
  readonly patterns: readonly RegExp[];
  /** Whether configured key names exist (then name rules run on every text, not only hinted ones). */
  readonly hasExtraKeys: boolean;
}

// Every quantifier below is bounded or anchored on a character class the next part cannot
// match, so no rule backtracks more than linearly on long text.

const PRIVATE_KEY_BLOCK = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----|$)/g;

/** `scheme://user:password@host`: the password goes, the user stays. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]{0,30}:\/\/[^\s/?#@:"'<>]{0,1024}):([^\s/?#@"'<>]{1,1024})@/gi;

/**
 * A `Cookie`, `Set-Cookie` or `Authorization` header line: everything after the colon is secret.
 * The value starts at a visible character; a quoted one is left to {@link ASSIGNMENT}.
 */
const SECRET_HEADER_LINE = /\b((?:set-)?cookie|(?:proxy-)?authorization)([ \t]*:[ \t]*)([^\s"'`][^\r\n"'`]*)/gi;

/**
 * `name=value` and `name: value` in any text: query strings, headers, env lines, JSON text,
 * `--flag=value`. The name is judged by the key-name rules, so text and data agree. The pattern
 * ends at a quoted value's opening quote (`"`, `'`, or `\"` in JSON text quoted into JSON once or
 * more); {@link quotedValueEnd} finds its close, however long the value is.
 */
const ASSIGNMENT =
  /(\\{0,8}["']?)\b(?=([A-Za-z_][\w.-]{0,63}))\2\1([ \t]*[:=][ \t]*)(?:(\\{1,8}"|["'])|((?:bearer|basic|token)[ \t]+)?([^\s"'`,;&?#=<>(){}[\]\\]+=*))/gi;

/** `--password hunter2`, `-token abc` in a command line. */
const FLAG_THEN_VALUE = /(^|[\s"'])(--?)([A-Za-z][\w-]{0,63})([ \t]+)(["']?)([^\s"'`]+)/g;

/** An `Authorization` value written anywhere: `Bearer …` always, `Basic …` when it looks encoded. */
const SCHEME_CREDENTIAL = /\b(bearer|basic)([ \t]+)([A-Za-z0-9._~+/-]+=*)/gi;

/**
 * Where a token shape may start: at a word boundary, or right after an escape that ends in a
 * letter or digit (`%20sk-…` in a URL, `\\nsk-…` or `\\u0020sk-…` in JSON text), which hides the boundary.
 */
const TOKEN_START = String.raw`(?:\b|(?<=%[0-9A-Fa-f]{2}|\\[nrtbf]|\\u[0-9A-Fa-f]{4}))`;

/**
 * Credentials with a recognisable shape, wherever they appear: one pattern, so text is scanned
 * once for all of them. Each shape starts with a fixed prefix ({@link TOKEN_HINT}).
 */
const TOKEN_SHAPES = new RegExp(
  [
    /sk-[A-Za-z0-9_-]{16,}/, // OpenAI, Anthropic
    /[sr]k_(?:live|test)_[A-Za-z0-9]{10,}/, // Stripe
    /gh[pousr]_[A-Za-z0-9]{20,}/,
    /github_pat_[A-Za-z0-9_]{20,}/,
    /glpat-[A-Za-z0-9_-]{20,}/,
    /A[KS]IA[A-Z0-9]{16}\b/, // AWS access key ids
    /xox[abposr]-[A-Za-z0-9-]{10,}/, // Slack
    /AIza[0-9A-Za-z_-]{30,}/, // Google
    /hf_[A-Za-z0-9]{30,}/,
    /npm_[A-Za-z0-9]{30,}/,
    /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/, // JSON Web Tokens
  ]
    .map((shape) => `${TOKEN_START}${shape.source}`)
    .join("|"),
  "g",
);

/** The fixed prefixes of {@link TOKEN_SHAPES}: text without any of them holds no such token. */
const TOKEN_HINT = /sk-|k_live_|k_test_|gh[pousr]_|github_pat_|glpat-|A[KS]IA|xox[abposr]-|AIza|hf_|npm_|eyJ/;

/** Every rule that reads a name (assignments, header lines, flags, schemes) needs one of these in the text. */
const NAME_HINT = /pass|pwd|secret|credential|auth|bearer|basic|jwt|cookie|key|token|sig|dsn|creds/i;

/**
 * One test every built-in rule's trigger passes: text without any of these (most text) is
 * returned after this single scan. Precise on purpose: a URL only counts when it carries
 * credentials (`://…@`), a token prefix only in its exact case, so ordinary prose and links skip
 * every rule.
 */
const ANY_HINT = new RegExp(`${NAME_HINT.source}|${TOKEN_HINT.source}|://[^\\s/?#@]{0,2049}@|-----BEGIN`, "i");

/** Shortest text any rule can change (`pwd=x`); shorter strings are returned untouched. */
const SHORTEST_SECRET_TEXT = 5;

/**
 * `text` with every secret the rules recognise replaced by {@link REDACTION_MASK}, and every
 * occurrence of the given literal `secrets` (longest first) too. Never throws.
 */
export function redactTextWith(text: string, context: TextRuleContext, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length > 0 && out.includes(secret)) out = out.split(secret).join(REDACTION_MASK);
  if (!anyRuleMayApply(out, context)) return out;
  if (out.includes("-----BEGIN")) out = out.replace(PRIVATE_KEY_BLOCK, REDACTION_MASK);
  if (out.includes("://") && out.includes("@")) out = out.replace(URL_CREDENTIALS, `$1:${REDACTION_MASK}@`);
  if (context.hasExtraKeys || NAME_HINT.test(out)) {
    const colon = out.includes(":");
    if (colon) out = out.replace(SECRET_HEADER_LINE, `$1$2${REDACTION_MASK}`);
    if (colon || out.includes("=")) out = hideAssignments(out, context);
    if (out.includes("-")) out = out.replace(FLAG_THEN_VALUE, hideFlagValue(context));
    out = out.replace(SCHEME_CREDENTIAL, hideSchemeCredential);
  }
  if (TOKEN_HINT.test(out)) out = out.replace(TOKEN_SHAPES, REDACTION_MASK);
  for (const pattern of context.patterns) out = out.replace(pattern, REDACTION_MASK);
  return out;
}

/** Whether any rule could change `text` (one scan for every rule's trigger); false for most text. */
export function anyRuleMayApply(text: string, context: TextRuleContext): boolean {
  if (text.length < SHORTEST_SECRET_TEXT) return false;
  return context.hasExtraKeys || context.patterns.length > 0 || ANY_HINT.test(text);
}

type Replacer = (match: string, ...groups: (string | undefined)[]) => string;

/**
 * Masks the value of every assignment whose name is a secret name. When the name is not, the
 * scan resumes right after its separator, so the value is read again as a possible name itself
 * (`failed: token=abc`).
 */
function hideAssignments(text: string, context: TextRuleContext): string {
  ASSIGNMENT.lastIndex = 0;
  let out = "";
  let copied = 0;
  for (let match = ASSIGNMENT.exec(text); match !== null; match = ASSIGNMENT.exec(text)) {
    const [whole, q1 = "", name = "", sep = "", open, scheme, bare] = match;
    const valueStart = match.index + whole.length;
    const end = open === undefined ? null : quotedValueEnd(text, valueStart, open);
    const value = end === null ? (bare ?? "") : text.slice(valueStart, end.value);
    const strength = value === REDACTION_MASK || value.length === 0 ? NOT_SECRET : context.strengthOf(name);
    // A number under a weak name stays readable (`max_tokens=256`), as it does in data.
    if (strength === NOT_SECRET || (strength !== STRONG_SECRET && isPlainNumber(value))) {
      ASSIGNMENT.lastIndex = match.index + q1.length * 2 + name.length + Math.max(sep.length, 1);
      continue;
    }
    const close = end === null ? "" : text.slice(end.value, end.after);
    out += text.slice(copied, match.index) + `${q1}${name}${q1}${sep}${scheme ?? ""}${open ?? ""}${REDACTION_MASK}${close}`;
    copied = end === null ? valueStart : end.after;
    ASSIGNMENT.lastIndex = copied;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * Where a quoted value that starts at `from` ends: `value` is the index of its closing quote (or
 * of the line's end, when the quote is never closed), `after` the index past the close. A value
 * opened by `\"` (JSON text quoted into JSON) closes at a `"` after exactly as many backslashes;
 * more backslashes quote a deeper level, fewer end the outer string. One pass, no length limit.
 */
function quotedValueEnd(text: string, from: number, open: string): { value: number; after: number } {
  const quote = open[open.length - 1]!;
  const escapes = open.length - 1;
  let i = from;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 10 || code === 13) break;
    if (code === 92 /* \ */) {
      let run = 0;
      while (text.charCodeAt(i + run) === 92) run++;
      if (text[i + run] === quote && run <= escapes) {
        return run === escapes ? { value: i, after: i + run + 1 } : { value: i, after: i };
      }
      i += escapes === 0 ? 2 : run + 1;
      continue;
    }
    if (text[i] === quote) return escapes === 0 ? { value: i, after: i + 1 } : { value: i, after: i };
    i++;
  }
  return { value: i, after: i };
}

function hideFlagValue(context: TextRuleContext): Replacer {
  return (match, lead = "", dashes = "", name = "", gap = "", quote = "", value = "") =>
    value.startsWith("-") || value === REDACTION_MASK || context.strengthOf(name) === NOT_SECRET
      ? match
      : `${lead}${dashes}${name}${gap}${quote}${REDACTION_MASK}`;
}

function hideSchemeCredential(match: string, scheme: string, gap: string, value: string): string {
  return value.startsWith("[") || (scheme.toLowerCase() === "basic" && !looksEncoded(value)) ? match : `${scheme}${gap}${REDACTION_MASK}`;
}

function isPlainNumber(value: string): boolean {
  return /^\d{1,9}$/.test(value);
}

/** Basic credentials are base64: long enough and not a plain lower-case word ("Basic usage"). */
function looksEncoded(value: string): boolean {
  return value.length >= 8 && /[A-Z0-9+/=]/.test(value) && /[a-z0-9]/.test(value);
}
