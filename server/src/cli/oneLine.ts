/** `text` on one line: every run of whitespace, newlines included, becomes one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ");
}
