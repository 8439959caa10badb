import { z } from "zod";
import type { FileReferences } from "./fileReferences.js";
import { StampedLists } from "./stampedLists.js";

/** A file's references, and whether it adds nothing to other modules or the globals once the walk asked (files on the runtime's side). */
export type SavedReferences = FileReferences & { confined?: boolean };

const referencesSchema: z.ZodType<SavedReferences> = z.object({
  modules: z.array(z.string()),
  paths: z.array(z.string()),
  types: z.array(z.string()),
  confined: z.boolean().optional(),
});

/**
 * Each file's references (what the runtime's-side walk reads with TypeScript's pre-processing
 * scanner, and the parse that tells whether a file on the runtime's side is confined), kept between
 * server starts: the first walk of a start reads some 400 files, most of them `@types/node` and
 * the runtime's, and parses the ~190 on the runtime's side; they rarely change. Package files
 * too, by their stamp.
 */
export class ReferenceLists extends StampedLists<SavedReferences> {
  constructor(root: string, onChange?: () => void, text?: string) {
    super("references", referencesSchema, root, text, onChange);
  }

  /** A saved list of `root`'s files, or an empty one when `text` is not one. */
  static read(root: string, text: string | undefined, onChange?: () => void): ReferenceLists {
    return new ReferenceLists(root, onChange, text);
  }
}
