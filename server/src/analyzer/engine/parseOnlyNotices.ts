import { ts } from "ts-morph";
import type { AnalysisNotice } from "./analyze.js";
import { syntaxErrorsNotice } from "./notices.js";
import { textChangeRange } from "./textChange.js";
import { unreadableFileNotice } from "./unreadableFile.js";

/**
 * The notices of a file answered from syntax alone (it cannot reach a hook library): its syntax
 * errors, or that the parser gave up on it. `parse` gives the tree: one the project already holds
 * for this exact text, a buffer's parse (BufferParses) or a bare one (bareParse); none of them
 * binds, builds a program or asks a type checker.
 */
export function parseOnlyNotices(filePath: string, parse: () => ts.SourceFile): AnalysisNotice[] {
  try {
    const notice = syntaxErrorsNotice(parse());
    return notice ? [notice] : [];
  } catch (error) {
    // TypeScript's parser recurses: deep nesting overflows the stack.
    return [unreadableFileNotice(filePath, error)];
  }
}

/** One parse of the text, without reading JSDoc (which holds no syntax errors of the code). */
export function bareParse(filePath: string, text: string): ts.SourceFile {
  return ts.createSourceFile(filePath, text, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, false);
}

/**
 * The last parse of each editor buffer that no rule looks at, updated on every keystroke the way
 * TypeScript's own language service does it: only the edited region is parsed again, the rest of
 * the tree is reused (about half the cost of a full parse on a 180-line file, and less garbage).
 */
export class BufferParses {
  readonly #trees = new Map<string, ts.SourceFile>();

  parse(filePath: string, text: string): ts.SourceFile {
    const previous = this.#trees.get(filePath);
    if (previous?.text === text) return previous;
    // Dropped first: an update that throws (deep nesting) may leave the old tree half reused.
    this.#trees.delete(filePath);
    const tree = previous === undefined ? bareParse(filePath, text) : ts.updateSourceFile(previous, text, textChangeRange(previous.text, text));
    this.#trees.set(filePath, tree);
    return tree;
  }

  forget(filePath: string): void {
    this.#trees.delete(filePath);
  }
}
