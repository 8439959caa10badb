import { ts } from "ts-morph";
import { z } from "zod";

/** A file on disk as it stood when it was read: its mtime and size. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
}

/** The first line of a saved list. */
const headerSchema = z.object({
  format: z.literal(2),
  /** What the entries are (import lists, reference lists): each has its own file and shape. */
  kind: z.string(),
  /** The scanner that read them: another TypeScript may find other forms. */
  typescript: z.string(),
  root: z.string(),
});

/** At most this many files are kept in a saved list (those used this session first). */
const MOST_ENTRIES = 10_000;

/**
 * Something derived from each file of a project (by syntax only), kept between server starts, so a
 * start can skip reading and pre-processing files that did not change. An entry is used only while
 * the file's size and mtime are those it was read at; anything else, or anything malformed, is
 * read afresh. Entries are data, checked against `value` before use, never code.
 *
 * Saved as text, a header line and then one line per file: its path as a JSON string, a tab,
 * `[mtimeMs, size, value]` as JSON (JSON never holds a raw tab or newline). A start reads only the
 * entries it asks for: parsing and validating a whole list up front cost ~30 ms for 1,000 files,
 * more than the reads it saves; splitting it into lines costs well under a millisecond.
 */
export class StampedLists<T> {
  readonly root: string;
  readonly #kind: string;
  readonly #entry: z.ZodType<[number, number, T]>;
  /** Lines read from the last saved list and not yet asked for, by their path's JSON text. */
  readonly #saved = new Map<string, string>();
  /** Entries asked for or read this session. */
  readonly #current = new Map<string, [number, number, T]>();
  #changed = false;
  readonly #onChange: () => void;

  /**
   * `text`: the saved list, ignored whole when it is not one of `kind` for `root` by this
   * TypeScript. `onChange`: called when an entry is added or replaced while the list is saved
   * (a save resets it).
   */
  constructor(kind: string, value: z.ZodType<T>, root: string, text: string | undefined, onChange: () => void = () => undefined) {
    this.root = root;
    this.#kind = kind;
    this.#entry = z.tuple([z.number(), z.number(), value]) as unknown as z.ZodType<[number, number, T]>;
    this.#onChange = onChange;
    const lines = text?.split("\n") ?? [];
    if (!this.#isHeader(lines[0])) return;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const tab = line.indexOf("\t");
      if (tab > 0) this.#saved.set(line.slice(0, tab), line.slice(tab + 1));
    }
  }

  /** What was read from `path` when it was last as `stamp` says; undefined when unknown, changed or malformed. */
  get(path: string, stamp: FileStamp): T | undefined {
    let entry = this.#current.get(path);
    if (!entry) {
      const key = JSON.stringify(path);
      const line = this.#saved.get(key);
      if (line === undefined) return undefined;
      this.#saved.delete(key);
      const parsed = this.#entry.safeParse(parseJson(line));
      if (!parsed.success) return undefined;
      entry = parsed.data;
      this.#current.set(path, entry);
    }
    return entry[0] === stamp.mtimeMs && entry[1] === stamp.size ? entry[2] : undefined;
  }

  set(path: string, stamp: FileStamp, value: T): void {
    this.#saved.delete(JSON.stringify(path));
    this.#current.set(path, [stamp.mtimeMs, stamp.size, value]);
    if (this.#changed) return;
    this.#changed = true;
    this.#onChange();
  }

  /** The text to save (this session's entries first, then earlier ones, at most {@link MOST_ENTRIES}); the list counts as saved after it. */
  toText(): string {
    this.#changed = false;
    const header: z.infer<typeof headerSchema> = { format: 2, kind: this.#kind, typescript: ts.version, root: this.root };
    const lines = [JSON.stringify(header)];
    for (const [path, entry] of this.#current) lines.push(`${JSON.stringify(path)}\t${JSON.stringify(entry)}`);
    for (const [key, line] of this.#saved) lines.push(`${key}\t${line}`);
    return lines.slice(0, MOST_ENTRIES + 1).join("\n");
  }

  #isHeader(line: string | undefined): boolean {
    const header = headerSchema.safeParse(parseJson(line));
    return header.success && header.data.kind === this.#kind && header.data.typescript === ts.version && header.data.root === this.root;
  }
}

/**
 * Whether the file was modified so recently that another write could still leave the same mtime
 * (file systems with coarse timestamps: 1-2 s), and the same size: what was read from it is not
 * kept for later starts, which could not tell it is stale.
 */
export function mayChangeUnseen(stamp: FileStamp): boolean {
  return Date.now() - stamp.mtimeMs < RECENT_MS;
}
const RECENT_MS = 3000;

function parseJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
