/** 1-based line and column of an offset, counted as ts-morph counts them (a line ends at "\n"; a column counts from the last "\n" or "\r"). */
export function lineAndColumnIn(text: string, offset: number): { line: number; column: number } {
  const at = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) line++;
  let lineStart = at;
  while (lineStart > 0 && text.charCodeAt(lineStart - 1) !== 10 && text.charCodeAt(lineStart - 1) !== 13) lineStart--;
  return { line, column: at - lineStart + 1 };
}
