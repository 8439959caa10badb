import { ts } from "ts-morph";

/** Where two versions of a text differ: [start, oldEnd) of the old text became [start, newEnd) of the new one. */
export interface TextChange {
  start: number;
  oldEnd: number;
  newEnd: number;
}

/** The one span that differs between `before` and `after` (their common prefix and suffix left out). */
export function changedSpan(before: string, after: string): TextChange {
  const shortest = Math.min(before.length, after.length);
  let start = 0;
  while (start < shortest && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let suffix = 0;
  while (suffix < shortest - start && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  return { start, oldEnd: before.length - suffix, newEnd: after.length - suffix };
}

/** The same as TypeScript's change range, for its incremental parser. */
export function textChangeRange(before: string, after: string): ts.TextChangeRange {
  const { start, oldEnd, newEnd } = changedSpan(before, after);
  return ts.createTextChangeRange(ts.createTextSpanFromBounds(start, oldEnd), newEnd - start);
}
