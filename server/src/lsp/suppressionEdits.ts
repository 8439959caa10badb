import { positionAt } from "./convert.js";

/** One text edit by offsets in the analysed text. */
export interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
}

const NEXT_LINE_COMMENT = /^(\s*\/\/\s*hooklens-disable-next-line)((?:[\s,]+HL\d{3})+)/;
const FILE_COMMENT = /^(\/\*\s*hooklens-disable)((?:[\s,]+HL\d{3})+)\s*\*\/\s*$/;

/**
 * Silences `code` on the line where `offset` is: adds the code to a `// hooklens-disable-next-line`
 * comment directly above, or inserts one with the line's indentation.
 */
export function disableForLineEdit(text: string, lineStarts: readonly number[], offset: number, code: string): OffsetEdit {
  const { line } = positionAt(lineStarts, offset);
  if (line > 0) {
    const above = lineText(text, lineStarts, line - 1);
    const existing = NEXT_LINE_COMMENT.exec(above.text);
    if (existing) return appendCode(above.start, existing, code);
  }
  const current = lineText(text, lineStarts, line);
  const indent = /^[ \t]*/.exec(current.text)![0];
  return { start: current.start, end: current.start, newText: `${indent}// hooklens-disable-next-line ${code}${eolOf(text)}` };
}

/**
 * Silences `code` in the whole file: adds the code to a `/* hooklens-disable … *\/` comment on the
 * first line (after a `#!` line), or inserts one there. A disable applies from where it stands, so
 * only the top of the file covers all of it.
 */
export function disableForFileEdit(text: string, lineStarts: readonly number[], code: string): OffsetEdit {
  const line = text.startsWith("#!") && lineStarts.length > 1 ? 1 : 0;
  const first = lineText(text, lineStarts, line);
  const existing = FILE_COMMENT.exec(first.text);
  if (existing) return appendCode(first.start, existing, code);
  return { start: first.start, end: first.start, newText: `/* hooklens-disable ${code} */${eolOf(text)}` };
}

function appendCode(lineStart: number, match: RegExpExecArray, code: string): OffsetEdit {
  const at = lineStart + match[1]!.length + match[2]!.length;
  return { start: at, end: at, newText: `, ${code}` };
}

function lineText(text: string, lineStarts: readonly number[], line: number): { start: number; text: string } {
  const start = lineStarts[line]!;
  const end = line + 1 < lineStarts.length ? lineStarts[line + 1]! : text.length;
  return { start, text: text.slice(start, end).replace(/\r?\n$/, "") };
}

function eolOf(text: string): string {
  return text.includes("\r\n") ? "\r\n" : "\n";
}
