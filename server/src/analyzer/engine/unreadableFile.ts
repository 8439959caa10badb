import { extname } from "node:path";
import type { AnalysisNotice } from "./analyze.js";

/** File extensions the analyzer reads. */
export const ANALYZED_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

export function isAnalyzedExtension(filePath: string): boolean {
  return ANALYZED_EXTENSIONS.includes(extname(filePath));
}

/**
 * The notice for a file that was never analysed: one whose type the analyzer does not read, or
 * one TypeScript's parser gave up on (it recurses, so a deeply nested expression overflows the stack).
 */
export function unreadableFileNotice(filePath: string, parseError?: unknown): AnalysisNotice {
  if (parseError === undefined) {
    const extension = extname(filePath) || "(no extension)";
    return { kind: "unsupported-file", message: `Not analysed: HookLens reads ${ANALYZED_EXTENSIONS.join(" ")} files, not ${extension}.`, start: 0, end: 0 };
  }
  const reason = parseError instanceof Error ? `${parseError.name}: ${parseError.message}` : String(parseError);
  const hint = parseError instanceof RangeError ? " (nesting too deep for the TypeScript parser?)" : "";
  return { kind: "unsupported-file", message: `Not analysed: the file could not be parsed${hint}: ${reason}.`, start: 0, end: 0 };
}
