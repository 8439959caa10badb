/** Complete NDJSON lines as UTF-8 bytes, and how many lines they hold. */
export interface LineChunk {
  readonly bytes: Uint8Array;
  readonly lines: number;
}

/** Bytes per chunk: an allocation this small is reused from the allocator's free lists, a large one gets fresh pages. */
const CHUNK_BYTES = 16 * 1024;
/** Spare chunks kept for the next batches (1 MiB): a steady stream then writes into memory already mapped. */
const MAX_SPARE_CHUNKS = 64;
const spareChunks: Buffer[] = [];
/** The memory of the chunks handed out and not yet given back, so only those are taken back, once. */
const chunksOut = new WeakSet<ArrayBufferLike>();

function takeChunk(atLeast: number): Buffer {
  const chunk = (atLeast <= CHUNK_BYTES ? spareChunks.pop() : undefined) ?? Buffer.allocUnsafe(Math.max(CHUNK_BYTES, atLeast));
  if (chunk.length === CHUNK_BYTES) chunksOut.add(chunk.buffer);
  return chunk;
}

/**
 * Gives a chunk's memory back once nothing reads it any more (its write completed, or it was
 * dropped). Fresh chunks cost more than their allocation: writing into new memory faults its pages
 * in. Bytes that did not come from a {@link LineBuffer} are left alone.
 */
export function recycleChunk(bytes: Uint8Array): void {
  const memory = bytes.buffer;
  if (!chunksOut.delete(memory) || spareChunks.length >= MAX_SPARE_CHUNKS) return;
  spareChunks.push(Buffer.from(memory, 0, CHUNK_BYTES));
}

/**
 * NDJSON lines encoded straight into UTF-8 chunks of {@link CHUNK_BYTES}. Encoding each line as it
 * comes costs a fraction of building one long string and encoding that (V8 encodes a string made
 * of thousands of concatenated pieces several times slower than short flat lines), and small
 * chunks cost a fraction of one large buffer: writing into a fresh allocation of hundreds of
 * kilobytes faults in new memory pages, ~4 µs per line measured here.
 */
export class LineBuffer {
  readonly #chunks: LineChunk[] = [];
  #current = takeChunk(CHUNK_BYTES);
  #length = 0;
  /** Lines in the current chunk (`#currentLines`) and in all of them (`#lines`). */
  #currentLines = 0;
  #lines = 0;

  /**
   * Appends the line `head + body + tail` and a newline unless its UTF-8 form is longer than
   * `maxBytes`; returns whether it was kept. The parts are encoded one after the other, never
   * joined: joining a frame's head to its payload JSON made a string V8 copied flat before
   * encoding it (about half the cost of writing a frame).
   */
  append(head: string, body: string, tail: string, maxBytes: number): boolean {
    // A UTF-16 unit takes at most 3 UTF-8 bytes; only when less room is left is the exact size worth counting.
    const room = this.#current.length - this.#length;
    if (room < (head.length + body.length + tail.length) * 3 + 1) {
      const bytes = Buffer.byteLength(head) + Buffer.byteLength(body) + Buffer.byteLength(tail);
      if (bytes > maxBytes) return false;
      if (room < bytes + 1) this.#startChunk(bytes + 1);
    }
    const start = this.#length;
    this.#length += this.#current.write(head, this.#length);
    this.#length += this.#current.write(body, this.#length);
    this.#length += this.#current.write(tail, this.#length);
    if (this.#length - start > maxBytes) {
      this.#length = start;
      return false;
    }
    this.#current[this.#length++] = 0x0a;
    this.#currentLines++;
    this.#lines++;
    return true;
  }

  get lineCount(): number {
    return this.#lines;
  }

  /** The lines appended so far, in chunks (views of this buffer's memory: append nothing after taking them). */
  chunks(): LineChunk[] {
    return this.#length === 0 ? this.#chunks : [...this.#chunks, this.#currentChunk()];
  }

  #currentChunk(): LineChunk {
    return { bytes: this.#current.subarray(0, this.#length), lines: this.#currentLines };
  }

  #startChunk(atLeast: number): void {
    if (this.#length > 0) this.#chunks.push(this.#currentChunk());
    this.#current = takeChunk(atLeast);
    this.#length = 0;
    this.#currentLines = 0;
  }
}
