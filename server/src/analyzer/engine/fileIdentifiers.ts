import { Node, type Identifier, type SourceFile } from "ts-morph";
import { FileIndex } from "./fileIndex.js";

/**
 * The identifiers of one file grouped by their text (read from the file's index, one walk per
 * parsed version), so following a local name's uses costs no project-wide reference search.
 */
export class FileIdentifiers {
  readonly #index: FileIndex;

  constructor(sourceFile: SourceFile) {
    this.#index = FileIndex.of(sourceFile);
  }

  /** Every identifier spelled `text` (as written), whatever it refers to. */
  spelled(text: string): readonly Identifier[] {
    // The index groups by the unescaped name; `text` is as written, which is the same unless it holds an escape.
    const unescaped = text.includes("\\") ? unescapedName(text) : text;
    return this.#index.identifiers(unescaped).filter((identifier): identifier is Identifier => Node.isIdentifier(identifier) && identifier.getText() === text);
  }

  /**
   * The uses of the name a declaration introduces (its own name node excluded), plus every
   * `export { name }` and shorthand `{ name }` spelled the same (their symbols are the export's or
   * the property's, so they are kept whenever the text matches: callers treat them as escapes).
   */
  usesOf(nameNode: Identifier): Identifier[] {
    const symbol = nameNode.getSymbol()?.compilerSymbol;
    return this.spelled(nameNode.getText()).filter((identifier) => {
      if (identifier === nameNode) return false;
      const parent = identifier.getParent();
      if (Node.isExportSpecifier(parent) || Node.isShorthandPropertyAssignment(parent)) return true;
      return symbol !== undefined && identifier.getSymbol()?.compilerSymbol === symbol;
    });
  }
}

/** The name an identifier written with escapes stands for (`\u0061b` is `ab`). */
function unescapedName(text: string): string {
  return text.replace(/\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})/g, (_, braced: string | undefined, plain: string | undefined) =>
    String.fromCodePoint(parseInt(braced ?? plain ?? "0", 16)),
  );
}
