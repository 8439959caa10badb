import { z } from "zod";
import { StampedLists } from "./stampedLists.js";

export type { FileStamp } from "./stampedLists.js";

/**
 * The module specifiers each file of a project names, kept between server starts, so a start can
 * skip reading and pre-processing files that did not change (the import closure the reach explores
 * at the first analysis, hundreds of files). See {@link StampedLists} for when an entry is used.
 */
export class ImportLists extends StampedLists<string[]> {
  constructor(root: string, onChange?: () => void, text?: string) {
    super("imports", z.array(z.string()), root, text, onChange);
  }

  /** A saved list of `root`'s files, or an empty one when `text` is not one (malformed, another format or TypeScript, another root). */
  static read(root: string, text: string | undefined, onChange?: () => void): ImportLists {
    return new ImportLists(root, onChange, text);
  }
}
