/**
 * NDJSON lines encoded straight into one growing UTF-8 buffer. Encoding each line as it comes
 * costs a fraction of building one long string and encoding that: V8 encodes a string made of
 * thousands of concatenated pieces several times slower than the same text in short flat lines.
 */
export class LineBuffer {
  #bytes: Buffer;
  #length = 0;
  #lines = 0;

  constructor(initialBytes: number) {
    this.#bytes = Buffer.allocUnsafe(initialBytes);
  }

  /** Appends `line` and a newline unless its UTF-8 form is longer than `maxBytes`; returns whether it was kept. */
  append(line: string, maxBytes: number): boolean {
    // A UTF-16 unit takes at most 3 UTF-8 bytes; only when less room is left is the exact size worth counting.
    const room = this.#bytes.length - this.#length;
    if (room < line.length * 3 + 1) this.#reserve(Buffer.byteLength(line) + 1);
    const written = this.#bytes.write(line, this.#length);
    if (written > maxBytes) return false;
    this.#length += written;
    this.#bytes[this.#length++] = 0x0a;
    this.#lines++;
    return true;
  }

  get lineCount(): number {
    return this.#lines;
  }

  /** The lines appended so far (a view of this buffer: append nothing after taking it). */
  bytes(): Buffer {
    return this.#bytes.subarray(0, this.#length);
  }

  #reserve(room: number): void {
    if (this.#bytes.length - this.#length >= room) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#bytes.length * 2, this.#length + room));
    this.#bytes.copy(grown, 0, 0, this.#length);
    this.#bytes = grown;
  }
}
