import { ts } from "ts-morph";

/** Declarations whose `name` is a member's or a property's, bound in no scope. */
const MEMBER_KINDS: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.PropertyAccessExpression,
  ts.SyntaxKind.PropertyDeclaration,
  ts.SyntaxKind.PropertySignature,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.MethodSignature,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
  ts.SyntaxKind.PropertyAssignment,
  ts.SyntaxKind.ShorthandPropertyAssignment,
  ts.SyntaxKind.ExportSpecifier,
  ts.SyntaxKind.NamedTupleMember,
  ts.SyntaxKind.JsxAttribute,
  ts.SyntaxKind.MetaProperty,
]);

/**
 * Whether `id` is the name a declaration binds in a scope: a variable, parameter, function,
 * class, import, type, type parameter, enum member, namespace (any kind, JSDoc ones included).
 */
export function isBindingName(id: ts.Identifier): boolean {
  const parent = id.parent;
  return (parent as { name?: ts.Node }).name === id && !MEMBER_KINDS.has(parent.kind);
}

/** Whether `id` names something other than a binding it refers to: a member, a property, an export's outside name, a label. */
export function isNamePosition(id: ts.Identifier): boolean {
  const parent = id.parent;
  if ((parent as { name?: ts.Node }).name === id) return true;
  if (ts.isQualifiedName(parent) && parent.right === id) return true;
  if ((ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent) || ts.isBindingElement(parent)) && parent.propertyName === id) return true;
  return (ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent)) && parent.label === id;
}

/** Whether `id` is in a JSDoc comment (its names follow other rules). */
export function isInJsDoc(id: ts.Identifier): boolean {
  return (id.flags & ts.NodeFlags.JSDoc) !== 0;
}

/**
 * The declaration `reference` refers to, decided without a binder where that is certain: every
 * declaration of the name in the file (among `sameName`, every identifier of the file spelled
 * like it) is one whose scope syntax places, and the
 * innermost of those scopes that holds `reference` decides (as lexical scoping does; two such
 * declarations in one scope, such as overloads, leave the answer undefined here). A declaration
 * whose scope syntax does not place (see `scopeOf`: `var`, types, enums, namespaces…) leaves the
 * question to the checker: undefined.
 */
export function soleBinding(reference: ts.Identifier, sameName: readonly ts.Identifier[]): ts.Declaration | undefined {
  if (isNamePosition(reference) || isInJsDoc(reference)) return undefined;
  return innermostBinding(reference, sameName);
}

/**
 * For a declaration's own name (`const x`, a parameter `x`): the declaration the checker's symbol
 * for it has first, which is its own unless it merges with another (overloads, a `var` declared
 * twice) or syntax does not place it: then undefined.
 */
export function declaredBinding(name: ts.Identifier, sameName: readonly ts.Identifier[]): ts.Declaration | undefined {
  if (!isBindingName(name) || isInJsDoc(name)) return undefined;
  const binding = innermostBinding(name, sameName);
  return binding === name.parent ? binding : undefined;
}

/** For a `{ name }` shorthand property: the declaration its value `name` refers to, as `soleBinding` places a reference. */
export function shorthandBinding(name: ts.Identifier, sameName: readonly ts.Identifier[]): ts.Declaration | undefined {
  return ts.isShorthandPropertyAssignment(name.parent) && !isInJsDoc(name) ? innermostBinding(name, sameName) : undefined;
}

/**
 * For `export { local as name }` (no `from`): the module's declaration `local` names, placed as a
 * reference at the export statement would be (the innermost scope there is the module's own).
 */
export function exportedLocalBinding(local: ts.Identifier, sameName: readonly ts.Identifier[]): ts.Declaration | undefined {
  return ts.isExportSpecifier(local.parent) && !isInJsDoc(local) ? innermostBinding(local, sameName) : undefined;
}

function innermostBinding(reference: ts.Identifier, sameName: readonly ts.Identifier[]): ts.Declaration | undefined {
  const placed = placedDeclarations(sameName);
  if (!placed) return undefined;
  // Scopes never overlap without nesting, so among those sorted by start (the enclosing one first
  // when two start together), the last that starts at or before the reference and holds it is the
  // innermost one holding it.
  let low = 0;
  let high = placed.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (placed[middle]!.scope.pos <= reference.pos) low = middle + 1;
    else high = middle;
  }
  for (let at = low - 1; at >= 0; at--) {
    const { declaration, scope } = placed[at]!;
    if (reference.end > scope.end) continue;
    // Two declarations of the name in that one scope (overloads, say): the checker decides.
    const tied = placed[at - 1]?.scope === scope || placed[at + 1]?.scope === scope;
    return tied ? undefined : declaration;
  }
  return undefined;
}

interface PlacedDeclaration {
  declaration: ts.Declaration;
  scope: ts.Node;
}

/**
 * Every declaration among `sameName` with the scope syntax places it in, sorted by the scope's
 * start (then the longer scope first); null when one of them has a scope syntax does not place, so
 * the checker must answer for every reference. Kept per list of names, which a file's index gives
 * once per parse: a file that declares one name in thousands of functions (a parameter `p` of
 * every handler) would otherwise scan them all for each reference.
 */
function placedDeclarations(sameName: readonly ts.Identifier[]): readonly PlacedDeclaration[] | null {
  let placed = PLACED.get(sameName);
  if (placed !== undefined) return placed;
  const found: PlacedDeclaration[] = [];
  for (const id of sameName) {
    if (!isBindingName(id)) continue;
    const declaration = id.parent as ts.Declaration;
    const scope = scopeOf(declaration);
    if (!scope) {
      PLACED.set(sameName, null);
      return null;
    }
    found.push({ declaration, scope });
  }
  placed = found.sort((a, b) => a.scope.pos - b.scope.pos || b.scope.end - a.scope.end);
  PLACED.set(sameName, placed);
  return placed;
}

const PLACED = new WeakMap<readonly ts.Identifier[], readonly PlacedDeclaration[] | null>();

/**
 * The node a declaration binds its name in, where syntax places it exactly: a top-level import
 * (the file); a `let`/`const`, a class, or a function in a module (its block); a parameter or a
 * destructured parameter (its function); a catch variable (the catch clause); a named function or
 * class expression (itself). Undefined for anything else (`var`, types, enums, namespaces, a
 * function in a script, which older rules hoist).
 */
function scopeOf(declaration: ts.Declaration): ts.Node | undefined {
  const importDeclaration = ts.isImportSpecifier(declaration)
    ? declaration.parent.parent.parent
    : ts.isNamespaceImport(declaration)
      ? declaration.parent.parent
      : ts.isImportClause(declaration)
        ? declaration.parent
        : undefined;
  if (importDeclaration) return ts.isSourceFile(importDeclaration.parent) ? importDeclaration.parent : undefined;
  if (ts.isFunctionExpression(declaration) || ts.isClassExpression(declaration)) return declaration;
  if (ts.isParameter(declaration)) return declaration.parent;
  if (ts.isBindingElement(declaration)) return patternScope(declaration);
  if (ts.isClassDeclaration(declaration)) return blockOf(declaration);
  if (ts.isFunctionDeclaration(declaration)) {
    const file = declaration.getSourceFile();
    return ts.isSourceFile(declaration.parent) || ts.isExternalModule(file) ? blockOf(declaration) : undefined;
  }
  if (!ts.isVariableDeclaration(declaration)) return undefined;
  if (ts.isCatchClause(declaration.parent)) return declaration.parent;
  if (!ts.isVariableDeclarationList(declaration.parent)) return undefined;
  const list = declaration.parent;
  if ((list.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) === 0) return undefined; // `var` is function-scoped: not placed here
  const holder = list.parent;
  if (ts.isForStatement(holder) || ts.isForInStatement(holder) || ts.isForOfStatement(holder)) return holder;
  return ts.isVariableStatement(holder) ? blockOf(holder) : undefined;
}

/** The block a statement-level declaration is scoped to (a `case` clause's is the whole switch block). */
function blockOf(statement: ts.Node): ts.Node | undefined {
  const block = statement.parent;
  if (ts.isCaseClause(block) || ts.isDefaultClause(block)) return block.parent;
  return ts.isSourceFile(block) || ts.isBlock(block) || ts.isModuleBlock(block) ? block : undefined;
}

/** A destructured name's scope: that of the parameter or variable whose pattern holds it. */
function patternScope(element: ts.BindingElement): ts.Node | undefined {
  let holder: ts.Node = element.parent;
  while (ts.isObjectBindingPattern(holder) || ts.isArrayBindingPattern(holder) || ts.isBindingElement(holder)) holder = holder.parent;
  return ts.isParameter(holder) || ts.isVariableDeclaration(holder) ? scopeOf(holder) : undefined;
}
