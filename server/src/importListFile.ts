import { ImportLists } from "./analyzer/engine/reach/importLists.js";
import { ReferenceLists } from "./analyzer/engine/reach/referenceLists.js";
import { savedLists } from "./savedListFile.js";

/** The import lists of the project at `root` kept between starts (see {@link savedLists}); undefined when caching is off. */
export function savedImportLists(root: string): ImportLists | undefined {
  return savedLists("imports-", root, (text, onChange) => ImportLists.read(root, text, onChange));
}

/** The references the runtime's-side walk read in the project at `root`, kept between starts likewise. */
export function savedReferenceLists(root: string): ReferenceLists | undefined {
  return savedLists("references-", root, (text, onChange) => ReferenceLists.read(root, text, onChange));
}
