/** The longest `Finding.message` editors should get: a headline, not a paragraph. */
export const HEADLINE_LIMIT = 100;

/**
 * User text (a name, a type, an expression) shortened to at most `max` characters, so that a
 * headline built around it stays within {@link HEADLINE_LIMIT} whatever the user wrote.
 */
export function clip(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, " ");
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}
