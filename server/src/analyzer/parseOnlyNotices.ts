import { ts } from "ts-morph";
import type { AnalysisNotice } from "./analyze.js";
import { syntaxErrorsNotice } from "./notices.js";
import { unreadableFileNotice } from "./unreadableFile.js";

/**
 * The notices of a file answered from syntax alone (it cannot reach a hook library): its syntax
 * errors, or that the parser gave up on it. `parsed` is the tree the project already holds for
 * this exact text, if any; otherwise the text is parsed here once, with no binding, no program
 * and no type checker, and without reading JSDoc (which holds no syntax errors of the code).
 */
export function parseOnlyNotices(filePath: string, source: { parsed: ts.SourceFile } | { text: string }): AnalysisNotice[] {
  try {
    const parsed =
      "parsed" in source
        ? source.parsed
        : ts.createSourceFile(filePath, source.text, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, false);
    const notice = syntaxErrorsNotice(parsed);
    return notice ? [notice] : [];
  } catch (error) {
    // TypeScript's parser recurses: deep nesting overflows the stack.
    return [unreadableFileNotice(filePath, error)];
  }
}
