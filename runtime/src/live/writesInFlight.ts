/** One write handed to the socket: its chunks (kept until it completes), bytes and counted lines. */
export interface WriteInFlight {
  readonly chunks: readonly Buffer[];
  readonly size: number;
  readonly lines: number;
}

const NEWLINE = 0x0a;

/**
 * The writes handed to the socket whose completion was not seen yet, oldest first. Writes
 * complete in order, so a completion is always the oldest's.
 */
export class WritesInFlight {
  readonly #writes: WriteInFlight[] = [];
  #bytes = 0;
  #lines = 0;

  get count(): number {
    return this.#writes.length;
  }

  get bytes(): number {
    return this.#bytes;
  }

  add(write: WriteInFlight): void {
    this.#writes.push(write);
    this.#bytes += write.size;
    this.#lines += write.lines;
  }

  /** The oldest write completed; returns it. */
  complete(): WriteInFlight | undefined {
    const write = this.#writes.shift();
    if (write) {
      this.#bytes -= write.size;
      this.#lines -= write.lines;
    }
    return write;
  }

  /**
   * Counted lines the operating system has not taken whole, from what the socket says is left:
   * `unfinished` is its `writableLength` (bytes of writes not finished, which are always the
   * newest ones: a write finished a moment ago may still wait for its callback), `queued` what
   * the oldest unfinished write still has in the OS queue (libuv's `writeQueueSize`; unknown
   * counts it as not written at all). A write taken in part delivered its complete lines: only
   * the lines whose newline was not written are lost.
   */
  linesNotWritten(unfinished: number, queued: number | undefined): number {
    if (unfinished <= 0) return 0;
    // The unfinished writes: the newest ones, as many as make up `unfinished`.
    let first = this.#writes.length;
    let sum = 0;
    while (first > 0 && sum < unfinished) sum += this.#writes[--first]!.size;
    if (sum !== unfinished) return this.#lines; // out of step with the socket: count everything
    const oldest = this.#writes[first];
    const written = oldest && queued !== undefined && queued <= oldest.size ? oldest.size - queued : 0;
    let notWritten = unfinished - written;
    let lost = 0;
    for (let i = this.#writes.length - 1; i >= first && notWritten > 0; i--) {
      const write = this.#writes[i]!;
      if (write.size <= notWritten) {
        lost += write.lines;
        notWritten -= write.size;
      } else {
        lost += Math.min(write.lines, newlinesInLast(write.chunks, notWritten));
        notWritten = 0;
      }
    }
    return lost;
  }

  /** Forgets every write (the socket is gone; their completions will not be counted). */
  clear(): void {
    this.#writes.length = 0;
    this.#bytes = 0;
    this.#lines = 0;
  }
}

/** Newlines in the last `count` bytes of `chunks` taken as one run of bytes. */
function newlinesInLast(chunks: readonly Buffer[], count: number): number {
  let newlines = 0;
  let left = count;
  for (let c = chunks.length - 1; c >= 0 && left > 0; c--) {
    const chunk = chunks[c]!;
    const from = Math.max(0, chunk.length - left);
    for (let i = from; i < chunk.length; i++) if (chunk[i] === NEWLINE) newlines++;
    left -= chunk.length - from;
  }
  return newlines;
}
