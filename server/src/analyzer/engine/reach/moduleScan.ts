import { ts } from "ts-morph";

/**
 * Every module a file names — imports, re-exports, `import x = require()`, `require()` and
 * `import()` calls — found by TypeScript's pre-processing scanner, without building a syntax tree.
 */
export function moduleSpecifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
}

/** One top-level statement, reduced to what decides whether a module hands a library's bindings on. */
interface StatementFacts {
  /** Names the statement declares (`const a`, `function f`, `class C`, …). */
  declares: string[];
  /** Identifiers it mentions, plus `require:<module>` for each `require("<module>")` call in it. */
  mentions: Set<string>;
  /** Whether it exports what it declares or mentions (`export …`, `export { a }`, `export default`, `module.exports =`). */
  exported: boolean;
  /** `export … from "<module>"`: the module whose bindings it re-exports. */
  reexportsFrom?: string;
}

/**
 * How a module exports one name: declared by the module itself (`export class X`; `plainClass`
 * for a class that extends and implements nothing, whose instances have only the members it
 * declares), taken from
 * another module (`export { Y as X } from "m"`), a top-level binding of the module exported under
 * a name (`export { local as X }`, `export default local`: `local`, as written), the module's own
 * default (`export default function …`, `export default class …`, `export default <expression>`
 * other than a name), or any other way (`export * as X from`, `export import X =`, `export default
 * ns.x`, type-only exports), which only a checker follows.
 */
export type ExportRoute =
  | { kind: "declared"; plainClass?: true }
  | { kind: "reexport"; module: string; name: string }
  | { kind: "local"; name: string }
  | { kind: "default" }
  | { kind: "other" };

/** What a module imports (local name → module) and exports, in statement order. */
export interface ExportFacts {
  imports: Map<string, string>;
  statements: StatementFacts[];
  /** Every name the module exports by name, with how. */
  named: Map<string, ExportRoute[]>;
  /** The modules of its `export * from "m"` statements. */
  stars: string[];
  /** Whether it also exports in ways the names above miss (`export =`, CommonJS assignments). */
  opaque: boolean;
}

/** Parses a file once and keeps only its import bindings and the export shape of its top-level statements. */
export function exportFacts(fileName: string, text: string): ExportFacts {
  return exportFactsOf(ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false));
}

/** `exportFacts` of a tree parsed already (a module the analysis holds: its facts then match its tree exactly). */
export function exportFactsOf(source: ts.SourceFile): ExportFacts {
  const imports = new Map<string, string>();
  const statements: StatementFacts[] = [];
  const named = new Map<string, ExportRoute[]>();
  const stars: string[] = [];
  let opaque = false;
  const route = (name: string, how: ExportRoute) => {
    const routes = named.get(name);
    if (routes) routes.push(how);
    else named.set(name, [how]);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      for (const name of importedNames(statement.importClause)) imports.set(name, statement.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference)) {
      const module = statement.moduleReference.expression;
      if (ts.isStringLiteral(module)) imports.set(statement.name.text, module.text);
      if (hasExportModifier(statement)) route(statement.name.text, { kind: "other" });
      if (hasExportModifier(statement))
        statements.push({
          declares: [],
          mentions: new Set([statement.name.text]),
          exported: true,
        });
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
        const module = statement.moduleSpecifier.text;
        const clause = statement.exportClause;
        if (!clause) stars.push(module);
        else if (ts.isNamespaceExport(clause)) route(clause.name.text, { kind: "other" });
        else for (const e of clause.elements) route(e.name.text, { kind: "reexport", module, name: writtenName(e.propertyName ?? e.name, source) });
        statements.push({
          declares: [],
          mentions: new Set(),
          exported: true,
          reexportsFrom: statement.moduleSpecifier.text,
        });
      } else if (statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        const locals = statement.exportClause.elements.map((e) => (e.propertyName ?? e.name).text);
        for (const e of statement.exportClause.elements) {
          const local = e.propertyName ?? e.name;
          const typeOnly = statement.isTypeOnly || e.isTypeOnly || !ts.isIdentifier(local);
          route(e.name.text, typeOnly ? { kind: "other" } : { kind: "local", name: local.text });
        }
        statements.push({
          declares: [],
          mentions: new Set(locals),
          exported: true,
        });
      }
    } else {
      const exported = isExported(statement);
      if (ts.isExportAssignment(statement)) route("default", defaultAssignmentRoute(statement));
      if (ts.isExportAssignment(statement) && statement.isExportEquals) opaque = true;
      else if (exported && !hasExportModifier(statement) && !ts.isExportAssignment(statement)) opaque = true; // CommonJS
      else if (hasExportModifier(statement) && hasDefaultModifier(statement))
        route("default", ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) ? { kind: "default" } : { kind: "other" });
      else if (hasExportModifier(statement)) for (const name of declaredNames(statement)) route(name, isPlainClass(statement) ? { kind: "declared", plainClass: true } : { kind: "declared" });
      statements.push({
        declares: declaredNames(statement),
        mentions: mentionsIn(statement),
        exported,
      });
    }
  }
  return { imports, statements, named, stars, opaque };
}

/**
 * Whether a module hands on bindings of the modules `reaches` accepts: it re-exports from one, or
 * exports something that mentions a name imported from one (directly or through its own
 * top-level declarations: `const client = new Client(); export { client }`).
 */
export function handsOn(facts: ExportFacts, reaches: (module: string) => boolean): boolean {
  const tainted = new Set([...facts.imports].filter(([, module]) => reaches(module)).map(([name]) => name));
  const touches = (mentions: Set<string>) => [...mentions].some((m) => tainted.has(m) || (m.startsWith("require:") && reaches(m.slice(8))));
  // Declarations may use names declared further down (hoisting): repeat until nothing new is tainted.
  for (let grew = true; grew;) {
    grew = false;
    for (const statement of facts.statements) {
      if (statement.reexportsFrom !== undefined && reaches(statement.reexportsFrom)) return true;
      if (!touches(statement.mentions)) continue;
      if (statement.exported) return true;
      for (const name of statement.declares) {
        if (tainted.has(name)) continue;
        tainted.add(name);
        grew = true;
      }
    }
  }
  return false;
}

/**
 * `export default x` exports the binding `x` (the checker's alias to it); `export default <other
 * expression>` a value the statement itself declares; `export = …` is CommonJS (opaque anyway),
 * and a qualified name (`export default ns.x`) an alias only a checker follows.
 */
function defaultAssignmentRoute(statement: ts.ExportAssignment): ExportRoute {
  if (statement.isExportEquals) return { kind: "other" };
  if (ts.isIdentifier(statement.expression)) return { kind: "local", name: statement.expression.text };
  return ts.isPropertyAccessExpression(statement.expression) ? { kind: "other" } : { kind: "default" };
}

function isPlainClass(statement: ts.Statement): boolean {
  return ts.isClassDeclaration(statement) && !statement.heritageClauses;
}

function importedNames(clause: ts.ImportClause | undefined): string[] {
  if (!clause) return [];
  const names = clause.name ? [clause.name.text] : [];
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) names.push(bindings.name.text);
  else if (bindings) names.push(...bindings.elements.map((e) => e.name.text));
  return names;
}

function hasExportModifier(statement: ts.Statement): boolean {
  return ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

/** A module export name as the checker's declarations spell it: an identifier as written, a string's value. */
function writtenName(name: ts.ModuleExportName, source: ts.SourceFile): string {
  return ts.isStringLiteral(name) ? name.text : name.getText(source);
}

function hasDefaultModifier(statement: ts.Statement): boolean {
  return ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
}

/** `export …`, `export default x`, `export = x`, and CommonJS `module.exports = …` / `exports.x = …`. */
function isExported(statement: ts.Statement): boolean {
  if (hasExportModifier(statement) || ts.isExportAssignment(statement)) return true;
  if (!ts.isExpressionStatement(statement) || !ts.isBinaryExpression(statement.expression)) return false;
  const target = statement.expression.left.getText(statement.getSourceFile());
  return statement.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken && /^(module\.exports|exports)\b/.test(target);
}

function declaredNames(statement: ts.Statement): string[] {
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.flatMap((d) => bindingNames(d.name));
  const named = statement as ts.Statement & { name?: ts.Node };
  return named.name && ts.isIdentifier(named.name) ? [named.name.text] : [];
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((element) => (ts.isOmittedExpression(element) ? [] : bindingNames(element.name)));
}

function mentionsIn(statement: ts.Statement): Set<string> {
  const mentions = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) mentions.add(node.text);
    else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "require") {
      const [module] = node.arguments;
      if (module && ts.isStringLiteral(module)) mentions.add(`require:${module.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(statement);
  return mentions;
}
