/**
 * Lines waiting to be handed to the socket, as the chunks they were sent in, oldest first. Each
 * chunk carries how many of its lines count (signals and drop reports; the hello and the bye do
 * not), so what never leaves can be counted as dropped.
 */
export class LineBacklog {
  #chunks: Buffer[] = [];
  #lines: number[] = [];
  #head = 0;
  #bytes = 0;
  #countedLines = 0;

  get bytes(): number {
    return this.#bytes;
  }

  /** Counted lines waiting. */
  get lines(): number {
    return this.#countedLines;
  }

  get isEmpty(): boolean {
    return this.#head === this.#chunks.length;
  }

  push(chunk: Buffer, lines: number): void {
    this.#chunks.push(chunk);
    this.#lines.push(lines);
    this.#add(chunk, lines);
  }

  /** Puts `chunk` ahead of everything waiting (the hello goes first). */
  pushFront(chunk: Buffer, lines: number): void {
    this.#chunks.splice(this.#head, 0, chunk);
    this.#lines.splice(this.#head, 0, lines);
    this.#add(chunk, lines);
  }

  /** Takes the oldest chunks, at least one and no more than `maxBytes` together unless the first alone is larger. */
  take(maxBytes: number): { chunks: Buffer[]; size: number; lines: number } {
    const chunks: Buffer[] = [];
    let size = 0;
    let lines = 0;
    while (this.#head < this.#chunks.length && (size === 0 || size + this.#chunks[this.#head]!.length <= maxBytes)) {
      const chunk = this.#chunks[this.#head]!;
      chunks.push(chunk);
      size += chunk.length;
      lines += this.#lines[this.#head]!;
      this.#head++;
    }
    if (this.#head === this.#chunks.length) this.#reset();
    else if (this.#head > 1_024) {
      // Drop the taken slots now and then, not on every take: slicing is linear in what is left.
      this.#chunks = this.#chunks.slice(this.#head);
      this.#lines = this.#lines.slice(this.#head);
      this.#head = 0;
    }
    this.#bytes -= size;
    this.#countedLines -= lines;
    return { chunks, size, lines };
  }

  /** Empties the backlog; returns how many counted lines it held (now never sent). */
  clear(): number {
    const lines = this.#countedLines;
    this.#reset();
    this.#bytes = 0;
    this.#countedLines = 0;
    return lines;
  }

  #add(chunk: Buffer, lines: number): void {
    this.#bytes += chunk.length;
    this.#countedLines += lines;
  }

  #reset(): void {
    this.#chunks = [];
    this.#lines = [];
    this.#head = 0;
  }
}
