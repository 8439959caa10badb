// One template source renders as plain text (a new file) and as a snippet with tab stops (the
// cursor), for TypeScript or JavaScript, so the variants cannot drift apart.

export type Language = "ts" | "js";
/** CommonJS JavaScript has no `export` keyword: the code is written without it. */
export type ModuleKind = "esm" | "commonjs";

type Segment =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "stop"; readonly index: number; readonly placeholder: string }
  | { readonly kind: "typed"; readonly text: string }
  | { readonly kind: "esm"; readonly text: string };

/** A piece of generated code. */
export class Code {
  constructor(readonly segments: readonly Segment[]) {}

  render(language: Language, module: ModuleKind = "esm"): Rendered {
    let text = "";
    let snippet = "";
    for (const segment of this.segments) {
      if (segment.kind === "stop") {
        text += segment.placeholder;
        snippet += segment.placeholder === "" ? `$${segment.index}` : `\${${segment.index}:${escapeSnippet(segment.placeholder)}}`;
      } else if (included(segment, language, module)) {
        text += segment.text;
        snippet += escapeSnippet(segment.text);
      }
    }
    return { text, snippet };
  }
}

function included(segment: Exclude<Segment, { kind: "stop" }>, language: Language, module: ModuleKind): boolean {
  switch (segment.kind) {
    case "text":
      return true;
    case "typed":
      return language === "ts";
    case "esm":
      return module === "esm";
  }
}

export interface Rendered {
  /** The code as it is written to a file. */
  text: string;
  /** The same code in VS Code snippet syntax: placeholders become tab stops. */
  snippet: string;
}

export type Part = string | Code;

/** Tagged template: interpolated strings are literal code, interpolated Code is spliced in. */
export function code(strings: TemplateStringsArray, ...parts: readonly Part[]): Code {
  const segments: Segment[] = [];
  strings.forEach((literal, i) => {
    if (literal) segments.push({ kind: "text", text: literal });
    const part = parts[i];
    if (typeof part === "string") segments.push({ kind: "text", text: part });
    else if (part) segments.push(...part.segments);
  });
  return new Code(segments);
}

/** A tab stop; its placeholder is the text a file gets. Index 0 is where the cursor ends. */
export function stop(index: number, placeholder = ""): Code {
  return new Code([{ kind: "stop", index, placeholder }]);
}

/** Text written only in TypeScript (type annotations, `override`, type-only imports). */
export function typed(text: string): Code {
  return new Code([{ kind: "typed", text }]);
}

/** Text written only in ES modules (`export `). */
export function esm(text: string): Code {
  return new Code([{ kind: "esm", text }]);
}

export function join(parts: readonly Code[], separator: string): Code {
  return new Code(parts.flatMap((part, i) => (i === 0 ? part.segments : [{ kind: "text", text: separator } as const, ...part.segments])));
}

/** Snippet syntax gives `$`, `}` and `\` a meaning; literal code must escape them. */
export function escapeSnippet(text: string): string {
  return text.replace(/[\\$}]/g, (ch) => `\\${ch}`);
}

/** A string as a source literal: identifiers stay bare keys, anything else is quoted. */
export function propertyKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}
