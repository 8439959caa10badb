import { requireString } from "../shared/arguments.js";
const cache = new Map<string, RegExp>();

/**
 * Shell-style pattern matching as Python's `fnmatch.fnmatchcase`: `*` matches any run of
 * characters (slashes included), `?` one character, `[abc]`/`[!abc]` a set. Case-sensitive.
 */
export function fnmatch(name: string, pattern: string): boolean {
  requireString(name, "fnmatch(name, pattern)", "name");
  requireString(pattern, "fnmatch(name, pattern)", "pattern");
  let regex = cache.get(pattern);
  if (!regex) {
    regex = new RegExp(`^${translate(pattern)}$`, "s");
    if (cache.size > 1_000) cache.clear();
    cache.set(pattern, regex);
  }
  return regex.test(name);
}

/** True when a pattern uses any of the wildcard characters `*`, `?` or `[`. */
export function hasWildcard(pattern: string): boolean {
  return /[*?[]/.test(pattern);
}

function translate(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "*") {
      out += ".*";
    } else if (ch === "?") {
      out += ".";
    } else if (ch === "[") {
      const end = closingBracket(pattern, i);
      if (end < 0) {
        out += "\\[";
        continue;
      }
      let body = pattern.slice(i + 1, end);
      const negate = body.startsWith("!");
      if (negate) body = body.slice(1);
      out += `[${negate ? "^" : ""}${body.replace(/[\\\]^]/g, "\\$&")}]`;
      i = end;
    } else {
      out += ch.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    }
  }
  return out;
}

function closingBracket(pattern: string, open: number): number {
  let j = open + 1;
  if (pattern[j] === "!") j++;
  if (pattern[j] === "]") j++;
  return pattern.indexOf("]", j);
}
