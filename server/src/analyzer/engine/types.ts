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
