import { NOT_SECRET, type KeyStrength } from "./keyNames.js";

/** What a hidden secret becomes in text and in data. */
export const REDACTION_MASK = "[redacted]";

/** The parts of the rule set the text rules need. */
export interface TextRuleContext {
  strengthOf(name: string): KeyStrength;
  readonly patterns: readonly RegExp[];
}

// Every quantifier below is bounded or anchored on a character class the next part cannot
// match, so no rule backtracks more than linearly on long text.

const PRIVATE_KEY_BLOCK = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----|$)/g;

/** `scheme://user:password@host`: the password goes, the user stays. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]{0,30}:\/\/[^\s/?#@:"'<>]{0,256}):([^\s/?#@"'<>]{1,1024})@/gi;

/** A `Cookie`, `Set-Cookie` or `Authorization` header line: everything after the colon is secret. */
const SECRET_HEADER_LINE = /\b((?:set-)?cookie|(?:proxy-)?authorization)([ \t]*:[ \t]*)([^\r\n"'`]+)/gi;

/**
 * `name=value` and `name: value` in any text: query strings, headers, env lines, JSON text,
 * `--flag=value`. The name is judged by the key-name rules, so text and data agree. A quoted
 * value is hidden up to its closing quote (escapes included).
 */
const ASSIGNMENT =
  /(["']?)\b([A-Za-z_][\w.-]{0,63})\1([ \t]*[:=][ \t]*)(?:((?:bearer|basic|token)[ \t]+)?([^\s"'`,;&?#=<>(){}[\]]+=*)|"((?:[^"\\\r\n]|\\.){0,4096})"|'((?:[^'\\\r\n]|\\.){0,4096})')/gi;

/** `--password hunter2`, `-token abc` in a command line. */
const FLAG_THEN_VALUE = /(^|[\s"'])(--?)([A-Za-z][\w-]{0,63})([ \t]+)(["']?)([^\s"'`]+)/g;

/** An `Authorization` value written anywhere: `Bearer …` always, `Basic …` when it looks encoded. */
const SCHEME_CREDENTIAL = /\b(bearer|basic)([ \t]+)([A-Za-z0-9._~+/-]+=*)/gi;

/** Credentials with a recognisable shape, wherever they appear. */
const TOKEN_SHAPES = new RegExp(
  [
    String.raw`\bsk-[A-Za-z0-9_-]{16,}`,
    String.raw`\b[sr]k_(?:live|test)_[A-Za-z0-9]{10,}`,
    String.raw`\bgh[pousr]_[A-Za-z0-9]{20,}`,
    String.raw`\bgithub_pat_[A-Za-z0-9_]{20,}`,
    String.raw`\bglpat-[A-Za-z0-9_-]{20,}`,
    String.raw`\b(?:AKIA|ASIA)[A-Z0-9]{16}\b`,
    String.raw`\bxox[abposr]-[A-Za-z0-9-]{10,}`,
    String.raw`\bAIza[0-9A-Za-z_-]{30,}`,
    String.raw`\bhf_[A-Za-z0-9]{30,}`,
    String.raw`\bnpm_[A-Za-z0-9]{30,}`,
    String.raw`\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`,
  ].join("|"),
  "g",
);

/** Shortest text any rule can change (`pwd=x`); shorter strings are returned untouched. */
const SHORTEST_SECRET_TEXT = 5;

/**
 * `text` with every secret the rules recognise replaced by {@link REDACTION_MASK}, and every
 * occurrence of the given literal `secrets` (longest first) too. Never throws.
 */
export function redactTextWith(text: string, context: TextRuleContext, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length > 0 && out.includes(secret)) out = out.split(secret).join(REDACTION_MASK);
  if (out.length < SHORTEST_SECRET_TEXT) return out;
  out = out.replace(PRIVATE_KEY_BLOCK, REDACTION_MASK);
  out = out.replace(URL_CREDENTIALS, `$1:${REDACTION_MASK}@`);
  out = out.replace(SECRET_HEADER_LINE, `$1$2${REDACTION_MASK}`);
  out = out.replace(ASSIGNMENT, hideAssignment(context));
  out = out.replace(FLAG_THEN_VALUE, (match: string, lead: string, dashes: string, name: string, gap: string, quote: string, value: string) =>
    value.startsWith("-") || value === REDACTION_MASK || context.strengthOf(name) === NOT_SECRET ? match : `${lead}${dashes}${name}${gap}${quote}${REDACTION_MASK}`,
  );
  out = out.replace(SCHEME_CREDENTIAL, (match: string, scheme: string, gap: string, value: string) =>
    value.startsWith("[") || (scheme.toLowerCase() === "basic" && !looksEncoded(value)) ? match : `${scheme}${gap}${REDACTION_MASK}`,
  );
  out = out.replace(TOKEN_SHAPES, REDACTION_MASK);
  for (const pattern of context.patterns) out = out.replace(pattern, REDACTION_MASK);
  return out;
}

type Replacer = (match: string, ...groups: (string | undefined)[]) => string;

function hideAssignment(context: TextRuleContext): Replacer {
  return (match, q1 = "", name = "", sep = "", scheme, bare, doubleQuoted, singleQuoted) => {
    const value = bare ?? doubleQuoted ?? singleQuoted ?? "";
    if (value === REDACTION_MASK || value.length === 0 || isPlainNumber(value) || context.strengthOf(name) === NOT_SECRET) return match;
    const quote = doubleQuoted !== undefined ? '"' : singleQuoted !== undefined ? "'" : "";
    return `${q1}${name}${q1}${sep}${scheme ?? ""}${quote}${REDACTION_MASK}${quote}`;
  };
}

function isPlainNumber(value: string): boolean {
  return /^\d{1,9}$/.test(value);
}

/** Basic credentials are base64: long enough and not a plain lower-case word ("Basic usage"). */
function looksEncoded(value: string): boolean {
  return value.length >= 8 && /[A-Z0-9+/=]/.test(value) && /[a-z0-9]/.test(value);
}
