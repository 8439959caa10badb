import { ts } from "ts-morph";

// Syntax facts the library resolvers read: which nodes can have a symbol, how an import binds a name, which reads cannot narrow.

/** The node kinds the checker's `getSymbolAtLocation` can answer with a symbol at all (any other gets undefined). */
export const SYMBOL_KINDS: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.PrivateIdentifier,
  ts.SyntaxKind.PropertyAccessExpression,
  ts.SyntaxKind.QualifiedName,
  ts.SyntaxKind.ThisKeyword,
  ts.SyntaxKind.ThisType,
  ts.SyntaxKind.SuperKeyword,
  ts.SyntaxKind.ConstructorKeyword,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.DefaultKeyword,
  ts.SyntaxKind.FunctionKeyword,
  ts.SyntaxKind.EqualsGreaterThanToken,
  ts.SyntaxKind.ClassKeyword,
  ts.SyntaxKind.ImportType,
  ts.SyntaxKind.ExportKeyword,
  ts.SyntaxKind.ImportKeyword,
  ts.SyntaxKind.NewKeyword,
  ts.SyntaxKind.InstanceOfKeyword,
  ts.SyntaxKind.MetaProperty,
  ts.SyntaxKind.JsxNamespacedName,
  ts.SyntaxKind.SourceFile,
]);

export const TYPESCRIPT_EXTENSIONS: ReadonlySet<string> = new Set([ts.Extension.Ts, ts.Extension.Tsx, ts.Extension.Dts, ts.Extension.Mts, ts.Extension.Cts, ts.Extension.Dmts, ts.Extension.Dcts]);

/** A name an import declaration binds: `import d`, `import * as ns`, `import { x }`. */
export type ImportBinding = ts.ImportClause | ts.NamespaceImport | ts.ImportSpecifier;

/** The import declaration that binds an import clause's default name, a namespace import or a named import. */
export function importDeclarationOf(binding: ts.Declaration): ts.ImportDeclaration | undefined {
  const clause = ts.isImportClause(binding) ? binding : ts.isNamespaceImport(binding) ? binding.parent : ts.isImportSpecifier(binding) ? binding.parent.parent : undefined;
  return clause && ts.isImportDeclaration(clause.parent) ? clause.parent : undefined;
}

export function moduleOf(declaration: ts.ImportDeclaration | ts.JSDocImportTag): string | undefined {
  return ts.isStringLiteral(declaration.moduleSpecifier) ? declaration.moduleSpecifier.text : undefined;
}

/** Classes of the standard library (instances whose members its declarations list). */
export const LIBRARY_CLASSES: ReadonlySet<string> = new Set(["Array", "Map", "Set", "WeakMap", "WeakSet", "Date", "RegExp", "Error", "Promise", "URL", "URLSearchParams"]);

/** The field a private name refers to: declared by the innermost class around it that declares that name. */
export function privateFieldOf(name: ts.PrivateIdentifier): ts.PropertyDeclaration | undefined {
  for (let node: ts.Node | undefined = name.parent; node; node = node.parent) {
    if (!ts.isClassLike(node)) continue;
    const member = node.members.find((m) => m.name !== undefined && ts.isPrivateIdentifier(m.name) && m.name.text === name.text);
    if (member) return ts.isPropertyDeclaration(member) ? member : undefined;
  }
  return undefined;
}

/** `x` in `x.member`: a read that cannot narrow `x` (a library's methods assert nothing about `this`). */
export function isReceiver(node: ts.Node): boolean {
  return ts.isPropertyAccessExpression(node.parent) && node.parent.expression === node;
}

/** A read that cannot narrow what it reads: `x.member`, `return x`, `const y = x`. */
export function isPlainRead(node: ts.Node): boolean {
  const parent = node.parent;
  if (isReceiver(node)) return true;
  if (ts.isReturnStatement(parent)) return true;
  return ts.isVariableDeclaration(parent) && parent.initializer === node && (parent.parent.flags & ts.NodeFlags.Const) !== 0;
}

/** The module specifier of an `import`/`export … from` declaration or of `import x = require()`. */
export function isImportSpecifierLiteral(literal: ts.StringLiteral): boolean {
  const parent = literal.parent;
  if ((ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) && parent.moduleSpecifier === literal) return true;
  return ts.isExternalModuleReference(parent) && ts.isImportEqualsDeclaration(parent.parent);
}
