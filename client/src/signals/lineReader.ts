/**
 * Splits a byte stream into lines of at most `maxBytes` (newline excluded). Splitting on the
 * newline byte before decoding keeps multibyte characters intact across chunks. A line that
 * grows past the limit is discarded up to its newline and reported once.
 */
export class LineReader {
  #maxBytes: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #discarding = false;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** Changes the bound for the line being read and those after it (a greeted peer gets a larger one). */
  setMaxBytes(maxBytes: number): void {
    this.#maxBytes = maxBytes;
  }

  /** Feeds a chunk; calls `onLine` for each complete line (with its length in bytes) and `onOversized` for each discarded one. */
  push(chunk: Buffer, onLine: (line: string, bytes: number) => void, onOversized: () => void): void {
    let start = 0;
    for (let newline = chunk.indexOf(10, start); newline !== -1; newline = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (this.#discarding) {
        this.#discarding = false;
        continue;
      }
      if (this.#pendingBytes + piece.length > this.#maxBytes) {
        this.#reset();
        onOversized();
        continue;
      }
      const line = this.#pendingBytes === 0 ? piece : Buffer.concat([...this.#pending, piece]);
      this.#reset();
      onLine(line.toString("utf8"), line.length);
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0 || this.#discarding) return;
    if (this.#pendingBytes + rest.length > this.#maxBytes) {
      this.#reset();
      this.#discarding = true;
      onOversized();
      return;
    }
    this.#pending.push(Buffer.from(rest));
    this.#pendingBytes += rest.length;
  }

  #reset(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
  }
}
