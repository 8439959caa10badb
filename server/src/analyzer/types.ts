import type { SourceFile } from "ts-morph";
import type { RuntimeResolver } from "./runtimeResolver.js";

export type Severity = "error" | "warning" | "information" | "hint";

/** One problem a rule found, located by character offsets in the analysed text. */
export interface Finding {
  code: string;
  severity: Severity;
  /** The headline editors show in the Problems list: the construct and its consequence, at most 100 characters. */
  message: string;
  /** Why it happens and what to do instead, for this case; the hover shows it under the headline. */
  explanation?: string | undefined;
  start: number;
  end: number;
  /** A certain, mechanical correction offered as a quick fix. */
  fix?: Fix | undefined;
  /** A place in another file the finding is about (the declaration of an imported handler). */
  related?: RelatedPlace | undefined;
}

/** A place in another file: its absolute path and 0-based line and column (UTF-16 units, as LSP counts). */
export interface RelatedPlace {
  file: string;
  line: number;
  character: number;
  message: string;
}

/** Text edits by character offset in the analysed text. */
export interface Fix {
  title: string;
  edits: { start: number; end: number; newText: string }[];
}

/** What a rule gets: the file, and the resolver that tells runtime symbols from look-alikes. */
export interface RuleContext {
  sourceFile: SourceFile;
  runtime: RuntimeResolver;
  report(finding: Omit<Finding, "code" | "severity"> & { severity?: Severity }): void;
}

/** An analyzer rule: a stable code, a default severity, its docs page and a check. */
export interface Rule {
  code: string;
  /** Kebab-case name, shown next to the code. */
  name: string;
  defaultSeverity: Severity;
  /** One sentence: what the rule protects against. */
  summary: string;
  check(context: RuleContext): void;
}
