import { ts } from "ts-morph";

const cache = new WeakMap<ts.SourceFile, ReadonlySet<string>>();

/**
 * The local names a file binds to other modules: `import` clauses, `import x = require()`, and
 * variables initialised with `require()` (destructured or not). Only such a name, or a property
 * path starting from one, can denote another module's export, so anything else needs no type
 * checker to be told apart from a hook library's names. One walk per parsed file, cached.
 */
export function importedNames(file: ts.SourceFile): ReadonlySet<string> {
  let names = cache.get(file);
  if (!names) cache.set(file, (names = collect(file)));
  return names;
}

function collect(file: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isImportClause(node)) {
      if (node.name) names.add(node.name.text);
      const bindings = node.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
      else if (bindings) for (const element of bindings.elements) names.add(element.name.text);
      return;
    }
    if (ts.isImportEqualsDeclaration(node)) names.add(node.name.text);
    else if (ts.isVariableDeclaration(node) && node.initializer && isRequireCall(node.initializer)) addBindings(node.name, names);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return names;
}

function isRequireCall(node: ts.Expression): boolean {
  let inner = node;
  while (ts.isParenthesizedExpression(inner) || ts.isAwaitExpression(inner) || ts.isPropertyAccessExpression(inner)) inner = inner.expression;
  return (
    (ts.isCallExpression(inner) && ts.isIdentifier(inner.expression) && inner.expression.text === "require") ||
    inner.kind === ts.SyntaxKind.ImportKeyword ||
    (ts.isCallExpression(inner) && inner.expression.kind === ts.SyntaxKind.ImportKeyword)
  );
}

function addBindings(name: ts.BindingName, names: Set<string>): void {
  if (ts.isIdentifier(name)) names.add(name.text);
  else for (const element of name.elements) if (!ts.isOmittedExpression(element)) addBindings(element.name, names);
}

/**
 * The identifier a reference starts from: `a` in `a`, `a.b.c`, `a!.b`, `(a as T).b`, `a["b"]`;
 * undefined when it starts elsewhere (`this.x`, `f().x`, `new C().x`).
 */
export function leftmostIdentifier(node: ts.Node): ts.Identifier | undefined {
  let current = node;
  for (;;) {
    if (ts.isIdentifier(current)) return current;
    if (
      ts.isPropertyAccessExpression(current) ||
      ts.isElementAccessExpression(current) ||
      ts.isParenthesizedExpression(current) ||
      ts.isNonNullExpression(current) ||
      ts.isAsExpression(current) ||
      ts.isSatisfiesExpression(current) ||
      ts.isTypeAssertionExpression(current)
    ) {
      current = current.expression;
      continue;
    }
    if (ts.isQualifiedName(current)) {
      current = current.left;
      continue;
    }
    return undefined;
  }
}
