import { Node, ts, type Identifier, type ShorthandPropertyAssignment } from "ts-morph";
import { FileIndex } from "./fileIndex.js";
import { declaredBinding, isBindingName, shorthandBinding, soleBinding } from "./soleBinding.js";

/** What a name refers to (see `bindingOf`): a declaration, or the symbol itself when it has none (`undefined`, `globalThis`). */
export type Binding = ts.Node | ts.Symbol;

/**
 * What a name refers to, as one node: the first declaration of the checker's symbol for it. Two
 * names refer to the same thing exactly when their bindings are the same node. Syntax gives it
 * where it places the name (`soleBinding`; an import's binding is its specifier, as the checker's
 * alias symbol has it), so a file whose names syntax places needs no checker for them; the
 * checker answers the rest. Works for references and for a declaration's own name alike.
 */
export function bindingOf(identifier: Identifier): Binding | undefined {
  const id = identifier.compilerNode;
  const sameName = FileIndex.of(identifier.getSourceFile()).rawIdentifiers(id.text);
  return (isBindingName(id) ? declaredBinding(id, sameName) : soleBinding(id, sameName)) ?? symbolBinding(identifier.getSymbol()?.compilerSymbol);
}

/** What a `{ name }` shorthand's value refers to: the variable `name`, not the property. */
export function shorthandValueBinding(property: ShorthandPropertyAssignment): Binding | undefined {
  const name = property.compilerNode.name;
  return shorthandBinding(name, FileIndex.of(property.getSourceFile()).rawIdentifiers(name.text)) ?? symbolBinding(property.getValueSymbol()?.compilerSymbol);
}

function symbolBinding(symbol: ts.Symbol | undefined): Binding | undefined {
  return symbol && (symbol.declarations?.[0] ?? symbol);
}

/**
 * The declaration in this file a name refers to when syntax places it there and it is no import
 * (a local variable, function, class or parameter): the symbol's only declaration, so the
 * checker's `getDeclarations()[0]` and `getValueDeclaration()` would give it too. Undefined
 * when the checker must answer (an import, which it follows, or a name syntax does not place).
 */
export function localDeclarationOf(identifier: Identifier): Node | undefined {
  const id = identifier.compilerNode;
  const index = FileIndex.of(identifier.getSourceFile());
  const local = soleBinding(id, index.rawIdentifiers(id.text));
  return local && !isImportBinding(local) ? index.wrap(local) : undefined;
}

/**
 * `identifier.getSymbol()?.getDeclarations()[0]`, from syntax where it places the name: an
 * import gives its specifier (the alias symbol's declaration), a local its declaration.
 */
export function firstDeclarationOf(identifier: Identifier): Node | undefined {
  const id = identifier.compilerNode;
  const index = FileIndex.of(identifier.getSourceFile());
  const binding = soleBinding(id, index.rawIdentifiers(id.text));
  return binding ? index.wrap(binding) : identifier.getSymbol()?.getDeclarations()[0];
}

/** Whether the file declares `name` anywhere (a local of that name may then shadow a global). */
export function declaresName(file: Node, name: string): boolean {
  return FileIndex.of(file.getSourceFile()).rawIdentifiers(name).some(isBindingName);
}

function isImportBinding(node: ts.Node): boolean {
  return ts.isImportSpecifier(node) || ts.isImportClause(node) || ts.isNamespaceImport(node) || ts.isImportEqualsDeclaration(node);
}
