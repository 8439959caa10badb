import { Node, SyntaxKind, type Identifier, type SourceFile } from "ts-morph";

/**
 * The identifiers of one file grouped by their text, collected on first use with one walk, so
 * following a local name's uses costs no project-wide reference search.
 */
export class FileIdentifiers {
  readonly #sourceFile: SourceFile;
  #byText: Map<string, Identifier[]> | undefined;

  constructor(sourceFile: SourceFile) {
    this.#sourceFile = sourceFile;
  }

  /** Every identifier spelled `text`, whatever it refers to. */
  spelled(text: string): readonly Identifier[] {
    if (!this.#byText) {
      this.#byText = new Map();
      for (const identifier of this.#sourceFile.getDescendantsOfKind(SyntaxKind.Identifier)) {
        const list = this.#byText.get(identifier.getText());
        if (list) list.push(identifier);
        else this.#byText.set(identifier.getText(), [identifier]);
      }
    }
    return this.#byText.get(text) ?? [];
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
