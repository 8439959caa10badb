import type { Finding } from "./types.js";

/**
 * Why a file was not (fully) analysed, so no caller ever mistakes "could not look" for "no problems".
 * `start`/`end` locate what it is about (the hook library import, the first syntax error), 0/0 for the whole file.
 */
export interface AnalysisNotice {
  kind: "syntax-errors" | "runtime-unresolved" | "unsupported-file" | "rules-failed";
  message: string;
  start: number;
  end: number;
  /** For "rules-failed": the codes of the rules that threw. */
  rules?: string[];
}

export interface AnalysisResult {
  findings: Finding[];
  /** Rules that threw; their findings are missing but the others still count. */
  failures: { code: string; error: unknown }[];
  /** What kept the analysis from being complete; empty when every rule looked at the whole file. */
  notices: AnalysisNotice[];
}
