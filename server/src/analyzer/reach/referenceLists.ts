import { z } from "zod";
import type { FileReferences } from "./fileReferences.js";
import { StampedLists } from "./stampedLists.js";

const referencesSchema: z.ZodType<FileReferences> = z.object({
  modules: z.array(z.string()),
  paths: z.array(z.string()),
  types: z.array(z.string()),
});

/**
 * Each file's references (what the runtime's-side walk reads with TypeScript's pre-processing
 * scanner), kept between server starts: the first walk of a start reads some 400 files, most of
 * them `@types/node` and the runtime's, which rarely change. Package files too, by their stamp.
 */
export class ReferenceLists extends StampedLists<FileReferences> {
  constructor(root: string, onChange?: () => void, text?: string) {
    super("references", referencesSchema, root, text, onChange);
  }

  /** A saved list of `root`'s files, or an empty one when `text` is not one. */
  static read(root: string, text: string | undefined, onChange?: () => void): ReferenceLists {
    return new ReferenceLists(root, onChange, text);
  }
}
