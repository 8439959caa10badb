import { InvalidValueError } from "../errors.js";
import { optionsObject } from "../arguments.js";
import { compactKey, isScalarValue, keyStrength, NOT_SECRET, STRONG_SECRET, strongFragmentMatcher, type KeyStrength } from "./keyNames.js";
import { anyRuleMayApply, REDACTION_MASK, redactTextWith, type TextRuleContext } from "./textRules.js";
import { redactJsonInPlace } from "./inPlace.js";
import { DEFAULT_MAX_DEPTH, walkRedacting, type WalkPolicy } from "./walk.js";

/** How to extend (or turn off) the shared rules. Everything given is added to the defaults. */
export interface RedactionOptions {
  /** More key names whose values are hidden, matched anywhere in a key with case and separators ignored (`"ssn"` hides `user_SSN`). */
  keys?: readonly string[];
  /** More patterns of secret text, hidden wherever they match (a missing `g` flag is added). */
  patterns?: readonly RegExp[];
  /** `false` turns redaction off on every way out. Explicit opt-out only; default `true`. */
  enabled?: boolean;
}

/** Per call: literal secrets to hide besides the rules (a key the caller holds), and the nesting bound. */
export interface RedactCallOptions {
  secrets?: readonly string[];
  maxDepth?: number;
}

const STRENGTH_CACHE_LIMIT = 4_096;
/**
 * Texts up to {@link CACHED_TEXT_CHARS} long have their redacted form remembered when it costs
 * more to work out than to look up: from this length on (prompts, summaries and error texts
 * repeat, and their trigger scan costs more than a lookup), and below it only when some rule
 * applies (an `Authorization` header sent on every call). A short text no rule applies to (an id,
 * a name, a number as text) is scanned each time: remembering it (an insert, and the table's
 * clearing) cost four times the scan, measured here.
 */
const MIN_CACHED_TEXT_CHARS = 64;
const CACHED_TEXT_CHARS = 256;
const TEXT_CACHE_LIMIT = 4_096;

/**
 * One rule set: key names (data keys, header names, query parameters, flags), value shapes
 * (`Bearer …`, `sk-…`-like tokens, URL credentials, `name=value` text) and any extra patterns.
 * Immutable; {@link configureRedaction} installs a new one.
 */
export class RedactionRules implements TextRuleContext {
  readonly enabled: boolean;
  readonly keys: readonly string[];
  readonly patterns: readonly RegExp[];
  readonly hasExtraKeys: boolean;
  /** Every strong key fragment, built-in and configured, as one pattern. */
  readonly #strong: RegExp;
  readonly #strengths = new Map<string, KeyStrength>();
  /** Short text → its redacted form, under these rules with no per-call secrets. Cleared when full. */
  readonly #texts = new Map<string, string>();
  #plainPolicy: WalkPolicy | undefined;

  constructor(options?: RedactionOptions) {
    options = optionsObject(options, "RedactionRules(options)");
    if (options.keys !== undefined && !Array.isArray(options.keys))
      throw new InvalidValueError("RedactionRules(options): keys must be an array of strings");
    if (options.patterns !== undefined && !(Array.isArray(options.patterns) && options.patterns.every((p) => p instanceof RegExp))) {
      throw new InvalidValueError("RedactionRules(options): patterns must be an array of regular expressions");
    }
    this.enabled = options.enabled !== false;
    this.keys = Object.freeze([...(options.keys ?? [])].map(String));
    const compactKeys = this.keys.map(compactKey).filter((key) => key.length > 0);
    this.#strong = strongFragmentMatcher(compactKeys);
    this.hasExtraKeys = compactKeys.length > 0;
    this.patterns = Object.freeze((options.patterns ?? []).map((p) => (p.global ? p : new RegExp(p.source, `${p.flags}g`))));
  }

  /** 0: not a secret name; 1: hides text and containers (`token`); 2: hides any value (`password`). */
  strengthOf(name: string): KeyStrength {
    let strength = this.#strengths.get(name);
    if (strength === undefined) {
      strength = keyStrength(name, this.#strong);
      if (this.#strengths.size >= STRENGTH_CACHE_LIMIT) this.#strengths.clear();
      this.#strengths.set(name, strength);
    }
    return strength;
  }

  /** Whether a value under this key, header or parameter name is hidden. */
  isSecretKey(name: string): boolean {
    return this.strengthOf(name) !== NOT_SECRET;
  }

  /** `text` with every recognised secret (and every given literal) masked. */
  redactText(text: string, options: RedactCallOptions = {}): string {
    if (!this.enabled) return text;
    try {
      const given = typeof text === "string" ? text : String(text);
      return options.secrets === undefined ? this.#cachedText(given) : redactTextWith(given, this, literalForms(options.secrets));
    } catch {
      return REDACTION_MASK;
    }
  }

  /**
   * A redacted copy of any value as plain JSON data: hidden key values, masked text, Maps as
   * objects, errors as `{ name, message }`, cycles and nesting past `maxDepth` (200) as markers.
   * Never throws, whatever the input.
   */
  redactValue(value: unknown, options: RedactCallOptions = {}): unknown {
    if (!this.enabled) return value;
    const plain = options.secrets === undefined && options.maxDepth === undefined;
    return walkRedacting(value, plain ? this.policy() : this.policy(options));
  }

  /**
   * {@link redactValue} for plain JSON data the caller owns (just built, not shared): redacted in
   * place, nothing copied that does not change. Returns the data, or what replaces it.
   */
  redactOwnedJson(value: unknown): unknown {
    if (!this.enabled) return value;
    return redactJsonInPlace(value, this.policy());
  }

  /** The walk policy of these rules, for callers that walk with their own mask or shape. */
  policy(
    options?: RedactCallOptions & {
      json?: boolean;
      mask?: string;
      extraKeys?: (key: string) => boolean;
    },
  ): WalkPolicy {
    if (options === undefined) return (this.#plainPolicy ??= this.#makePolicy({}));
    return this.#makePolicy(options);
  }

  #textWith(text: string, secrets: readonly string[]): string {
    try {
      return redactTextWith(text, this, secrets);
    } catch {
      return REDACTION_MASK;
    }
  }

  #cachedText(text: string): string {
    if (text.length > CACHED_TEXT_CHARS) return this.#textWith(text, []);
    if (text.length < MIN_CACHED_TEXT_CHARS && !anyRuleMayApply(text, this)) return text;
    let redacted = this.#texts.get(text);
    if (redacted === undefined) {
      redacted = this.#textWith(text, []);
      if (this.#texts.size >= TEXT_CACHE_LIMIT) this.#texts.clear();
      this.#texts.set(text, redacted);
    }
    return redacted;
  }

  #makePolicy(
    options: RedactCallOptions & {
      json?: boolean;
      mask?: string;
      extraKeys?: (key: string) => boolean;
    },
  ): WalkPolicy {
    const secrets = literalForms(options.secrets);
    const extraKeys = options.extraKeys;
    if (!this.enabled) {
      return {
        json: options.json ?? true,
        mask: options.mask ?? REDACTION_MASK,
        maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
        hides: (key) => extraKeys?.(key) === true,
        text: (text) => text,
      };
    }
    return {
      json: options.json ?? true,
      mask: options.mask ?? REDACTION_MASK,
      maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
      hides: (key, value) => {
        if (extraKeys?.(key)) return true;
        const strength = this.strengthOf(key);
        if (strength === NOT_SECRET) return false;
        return strength === STRONG_SECRET || !isScalarValue(value);
      },
      text: secrets.length === 0 ? (text) => this.#cachedText(text) : (text) => this.#textWith(text, secrets),
    };
  }
}

/** Each literal secret as given, trimmed, and percent-encoded; longest first so no part survives. */
export function literalForms(secrets: readonly string[] | undefined): string[] {
  if (!secrets || secrets.length === 0) return [];
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== "string") continue;
    for (const form of [secret, secret.trim(), safeEncode(secret.trim())]) if (form.length >= 4) forms.add(form);
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

function safeEncode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
}
