import type { SourceFile } from "ts-morph";
import type { Fix } from "../../engine/types.js";
import type { AiSdkFacts } from "./facts.js";

/** A finding as the AI SDK rules report it (the engine adds the code and the severity). */
export interface AiSdkReport {
  start: number;
  end: number;
  message: string;
  explanation?: string;
  fix?: Fix;
}

/** What an AI SDK rule gets: the file, the pack's facts about it, and where to report. */
export interface AiSdkRuleContext {
  sourceFile: SourceFile;
  facts: AiSdkFacts;
  report(finding: AiSdkReport): void;
}

/** One rule of the AI SDK pack (codes HL3nn); the shape of the engine's `Rule`. */
export interface AiSdkRule {
  code: string;
  name: string;
  defaultSeverity: "error" | "warning" | "information" | "hint";
  summary: string;
  check(context: AiSdkRuleContext): void;
}
