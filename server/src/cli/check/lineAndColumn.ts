/**
 * 1-based lines and columns of offsets in one text, counted as ts-morph counts them (a line ends at
 * "\n"; a column counts from the last "\n" or "\r"), so reports read the same as the editor's. The
 * breaks are listed once and each offset is a binary search: a file with thousands of findings
 * costs no more than its length.
 */
export class LineTable {
  readonly #text: string;
  /** Offsets of every "\n". */
  readonly #lineEnds: number[] = [];
  /** Offsets of every "\n" and "\r": where a column starts counting afresh. */
  readonly #breaks: number[] = [];

  constructor(text: string) {
    this.#text = text;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 10) this.#lineEnds.push(i);
      if (code === 10 || code === 13) this.#breaks.push(i);
    }
  }

  at(offset: number): { line: number; column: number } {
    const at = Math.max(0, Math.min(offset, this.#text.length));
    const lastBreak = this.#breaks[countBelow(this.#breaks, at) - 1];
    return { line: countBelow(this.#lineEnds, at) + 1, column: at - (lastBreak === undefined ? 0 : lastBreak + 1) + 1 };
  }
}

/** How many of the sorted offsets are below `at`. */
function countBelow(offsets: readonly number[], at: number): number {
  let low = 0;
  let high = offsets.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (offsets[middle]! < at) low = middle + 1;
    else high = middle;
  }
  return low;
}
