import { ts } from "ts-morph";
import { z } from "zod";

/** A file on disk as it stood when its imports were listed. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
}

/** The first line of a saved list. */
const headerSchema = z.object({
  format: z.literal(2),
  /** The scanner that listed them: another TypeScript may list other forms. */
  typescript: z.string(),
  root: z.string(),
});
/** One file's entry: [mtimeMs, size, module specifiers]. */
const entrySchema = z.tuple([z.number(), z.number(), z.array(z.string())]);
type Entry = z.infer<typeof entrySchema>;

/** At most this many files are kept in a saved list (those used this session first). */
const MOST_ENTRIES = 10_000;

/**
 * The module specifiers each file of a project names, kept between server starts, so a start can
 * skip reading and pre-processing files that did not change (the import closure the reach explores
 * at the first analysis, hundreds of files). An entry is used only while the file's size and mtime
 * are those it was listed at; anything else, or anything malformed, is listed afresh.
 *
 * Saved as text, a header line and then one line per file: its path as a JSON string, a tab, its
 * entry as JSON (JSON never holds a raw tab or newline). A start reads only the entries it asks
 * for: parsing and validating a whole list up front cost ~30 ms for 1,000 files, more than the
 * reads it saves; splitting it into lines costs well under a millisecond.
 */
export class ImportLists {
  readonly root: string;
  /** Lines read from the last saved list and not yet asked for, by their path's JSON text. */
  readonly #saved: Map<string, string>;
  /** Entries asked for or listed this session. */
  readonly #current = new Map<string, Entry>();
  #changed = false;
  readonly #onChange: () => void;

  /** `onChange`: called when an entry is added or replaced while the list is saved (a save resets it). */
  constructor(root: string, onChange: () => void = () => undefined, saved: Map<string, string> = new Map()) {
    this.root = root;
    this.#onChange = onChange;
    this.#saved = saved;
  }

  /** A saved list of `root`'s files, or an empty one when `text` is not one (malformed, another format or TypeScript, another root). */
  static read(root: string, text: string | undefined, onChange?: () => void): ImportLists {
    const saved = new Map<string, string>();
    const lines = text?.split("\n") ?? [];
    if (isHeaderOf(root, lines[0])) {
      for (let i = 1; i < lines.length; i++) {
        const line = lines[i]!;
        const tab = line.indexOf("\t");
        if (tab > 0) saved.set(line.slice(0, tab), line.slice(tab + 1));
      }
    }
    return new ImportLists(root, onChange, saved);
  }

  /** The specifiers listed for `path` when it was last as `stamp` says; undefined when unknown, changed or malformed. */
  get(path: string, stamp: FileStamp): string[] | undefined {
    let entry = this.#current.get(path);
    if (!entry) {
      const key = JSON.stringify(path);
      const line = this.#saved.get(key);
      if (line === undefined) return undefined;
      this.#saved.delete(key);
      entry = parseEntry(line);
      if (!entry) return undefined;
      this.#current.set(path, entry);
    }
    return entry[0] === stamp.mtimeMs && entry[1] === stamp.size ? entry[2] : undefined;
  }

  set(path: string, stamp: FileStamp, specifiers: string[]): void {
    this.#saved.delete(JSON.stringify(path));
    this.#current.set(path, [stamp.mtimeMs, stamp.size, specifiers]);
    if (this.#changed) return;
    this.#changed = true;
    this.#onChange();
  }

  /** The text to save (this session's entries first, then earlier ones, at most {@link MOST_ENTRIES}); the list counts as saved after it. */
  toText(): string {
    this.#changed = false;
    const header: z.infer<typeof headerSchema> = { format: 2, typescript: ts.version, root: this.root };
    const lines = [JSON.stringify(header)];
    for (const [path, entry] of this.#current) lines.push(`${JSON.stringify(path)}\t${JSON.stringify(entry)}`);
    for (const [key, line] of this.#saved) lines.push(`${key}\t${line}`);
    return lines.slice(0, MOST_ENTRIES + 1).join("\n");
  }
}

function isHeaderOf(root: string, line: string | undefined): boolean {
  const header = headerSchema.safeParse(parseJson(line));
  return header.success && header.data.typescript === ts.version && header.data.root === root;
}

function parseEntry(line: string): Entry | undefined {
  const entry = entrySchema.safeParse(parseJson(line));
  return entry.success ? entry.data : undefined;
}

function parseJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
