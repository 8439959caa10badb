import { ts, type Identifier, type Node, type Project, type SourceFile } from "ts-morph";
import { FileIndex } from "./fileIndex.js";
import { isJavaScriptPath } from "./javaScriptFiles.js";
import { exportFactsOf, type ExportFacts } from "./reach/moduleScan.js";
import { declaredBinding, exportedLocalBinding, soleBinding } from "./soleBinding.js";
import type { ModuleExports } from "./moduleExports.js";

/** What following an import into a project module needs beyond the modules' export shapes. */
export interface ProjectModules extends ModuleExports {
  /**
   * The module at `path` as the program holds it (or will): the ts-morph project's tree of it, an
   * editor buffer's current text or else the file on disk. The program, when one is built, takes
   * this same tree, so a declaration found here is the node the checker would answer with.
   */
  moduleFile(path: string): SourceFile | undefined;
  /** Where the program resolves `specifier` from `containingFile`: undefined where it does not (it leaves some project modules out). */
  resolveForProgram(specifier: string, containingFile: string): ts.ResolvedModuleFull | undefined;
}

/**
 * The project modules of each ts-morph project that follows imports (an AnalysisProject registers
 * them): the helpers that ask this (`functionOf`, …) are called by rules with a node alone.
 */
const registered = new WeakMap<Project, ProjectModules>();

export function followImportsIn(project: Project, modules: ProjectModules): void {
  registered.set(project, modules);
}

/** The project modules a ts-morph project follows imports into; undefined when it does not. */
export function projectModulesOf(project: Project): ProjectModules | undefined {
  return registered.get(project);
}

/** Whether these are modules an import can be followed into (an AnalysisProject's, not the reach alone). */
export function isProjectModules(modules: ModuleExports | undefined): modules is ProjectModules {
  return modules !== undefined && "moduleFile" in modules;
}

/** A declaration found behind an import, with the project file that holds it. */
export interface Declared {
  declaration: ts.Declaration;
  file: SourceFile;
}

/** A module that does not export the name at all (through an `export *` it may come from another). */
const ABSENT = Symbol("absent");
type Found = Declared | typeof ABSENT | undefined;

/** Module files whose declarations syntax reads here: TypeScript sources (a `.d.ts` or JavaScript is the checker's). */
const SOURCE_EXTENSIONS: ReadonlySet<string> = new Set([ts.Extension.Ts, ts.Extension.Tsx, ts.Extension.Mts, ts.Extension.Cts]);

/** Export facts of the trees read here, so routes and declarations come from one parse of one text. */
const factsByTree = new WeakMap<ts.SourceFile, ExportFacts>();

/**
 * The declaration a name refers to through an import of a project module, when syntax proves it:
 * the one declaration of the checker's aliased symbol (`getAliasedSymbol().getDeclarations()`),
 * the same node. Undefined when only the checker can tell (see `declarationBehindImport`).
 */
export function importedDeclarationOf(identifier: Identifier): Node | undefined {
  const modules = projectModulesOf(identifier.getProject());
  if (!modules) return undefined;
  const id = identifier.compilerNode;
  const importer = identifier.getSourceFile();
  const binding = soleBinding(id, FileIndex.of(importer).rawIdentifiers(id.text));
  const found = binding && (ts.isImportSpecifier(binding) || ts.isImportClause(binding)) ? declarationBehindImport(binding, importer, modules) : undefined;
  return found && FileIndex.of(found.file).wrap(found.declaration);
}

/**
 * What a named or default import (`import { f } from "../handlers"`, `import f from …`) of a
 * project's TypeScript module refers to, followed as the checker's alias chain is: through
 * `export { f } from`, `export *` (a name found through exactly one), `export { local as f }` and
 * `export default local` (again through that module's own imports), to the sole top-level
 * declaration of the name in the module that declares it (`export function f`, `export const f =
 * …`, `export class F`), or to the module's own default (`export default function …`; `export
 * default <expression>`, whose declaration is that statement). Every module on the way must be
 * one the program holds (`resolveForProgram`) and a TypeScript source. Undefined for anything
 * else: namespace and type-only imports, overloads and merged declarations, `var`, a `.d.ts`,
 * JavaScript, packages, an import that does not resolve, CommonJS forms. Module augmentations
 * (`declare module "./handlers"` in another file) are not looked for.
 */
export function declarationBehindImport(binding: ts.ImportSpecifier | ts.ImportClause, importer: SourceFile, modules: ProjectModules): Declared | undefined {
  const found = behindImport(binding, importer, modules, 0);
  return found === ABSENT ? undefined : found;
}

function behindImport(binding: ts.ImportSpecifier | ts.ImportClause, importer: SourceFile, modules: ProjectModules, hops: number): Found {
  const clause = ts.isImportClause(binding) ? binding : binding.parent.parent;
  const declaration = clause.parent;
  if (binding.isTypeOnly || clause.isTypeOnly || !ts.isImportDeclaration(declaration) || !ts.isStringLiteral(declaration.moduleSpecifier)) return undefined;
  if (isJavaScriptPath(importer.getFilePath())) return undefined;
  const name = ts.isImportClause(binding) ? "default" : (binding.propertyName ?? binding.name).text;
  return exportedFrom(declaration.moduleSpecifier.text, importer.getFilePath(), name, modules, hops);
}

/** What the module `specifier` names (from `from`) exports as `name`. */
function exportedFrom(specifier: string, from: string, name: string, modules: ProjectModules, hops: number): Found {
  if (hops > 16 || modules.isHookLibrarySpecifier(specifier)) return undefined;
  const resolved = modules.resolveForProgram(specifier, from);
  if (!resolved || resolved.isExternalLibraryImport || !SOURCE_EXTENSIONS.has(resolved.extension)) return undefined;
  const path = resolved.resolvedFileName;
  if (modules.isHookLibraryFile(path)) return undefined;
  const file = modules.moduleFile(path);
  if (!file) return undefined;
  const facts = factsOf(file.compilerNode);
  if (facts.opaque) return undefined;
  const routes = facts.named.get(name);
  if (routes) {
    const [route] = routes;
    if (routes.length !== 1 || !route) return undefined;
    if (route.kind === "declared") return declaredIn(file, name);
    if (route.kind === "local") return localIn(file, name, modules, hops);
    if (route.kind === "default") return ownDefault(file);
    return route.kind === "reexport" ? exportedFrom(route.module, path, route.name, modules, hops + 1) : undefined;
  }
  // `export *` never re-exports a default; a name two of them export is ambiguous (the checker drops it).
  if (name === "default") return undefined;
  let found: Found = ABSENT;
  for (const star of facts.stars) {
    const behind = exportedFrom(star, path, name, modules, hops + 1);
    if (behind === undefined || (behind !== ABSENT && found !== ABSENT)) return undefined;
    if (behind !== ABSENT) found = behind;
  }
  return found;
}

function factsOf(tree: ts.SourceFile): ExportFacts {
  let facts = factsByTree.get(tree);
  if (!facts) factsByTree.set(tree, (facts = exportFactsOf(tree)));
  return facts;
}

/** `export function name` / `export const name = …` / `export class Name`: its declaration, when it is the only one of the name there. */
function declaredIn(file: SourceFile, name: string): Found {
  const sameName = FileIndex.of(file).rawIdentifiers(name);
  for (const statement of file.compilerNode.statements) {
    const names = ts.isVariableStatement(statement)
      ? statement.declarationList.declarations.map((declaration) => declaration.name)
      : ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)
        ? [statement.name]
        : [];
    const own = names.find((id): id is ts.Identifier => id !== undefined && ts.isIdentifier(id) && id.text === name);
    if (!own) continue;
    // declaredBinding places every declaration of the name in the file: overloads, merged or `var` ones leave it undefined.
    const declaration = declaredBinding(own, sameName);
    return declaration && { declaration, file };
  }
  return undefined;
}

/** `export { local as name }` or `export default local`: the module's own declaration of `local`, or what its import of `local` refers to. */
function localIn(file: SourceFile, name: string, modules: ProjectModules, hops: number): Found {
  const index = FileIndex.of(file);
  for (const statement of file.compilerNode.statements) {
    let binding: ts.Declaration | undefined;
    if (name === "default" && ts.isExportAssignment(statement) && !statement.isExportEquals && ts.isIdentifier(statement.expression)) {
      binding = soleBinding(statement.expression, index.rawIdentifiers(statement.expression.text));
    } else if (ts.isExportDeclaration(statement) && !statement.moduleSpecifier && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      const element = statement.exportClause.elements.find((e) => e.name.text === name);
      const local = element && (element.propertyName ?? element.name);
      if (!local || !ts.isIdentifier(local)) continue;
      binding = exportedLocalBinding(local, index.rawIdentifiers(local.text));
    } else continue;
    if (!binding) return undefined;
    if (ts.isImportSpecifier(binding) || ts.isImportClause(binding)) return behindImport(binding, file, modules, hops + 1);
    return ts.isNamespaceImport(binding) ? undefined : { declaration: binding, file };
  }
  return undefined;
}

/** `export default function …` / `export default class …` (named or not), or `export default <expression>`: that statement. */
function ownDefault(file: SourceFile): Found {
  const statement = file.compilerNode.statements.find(
    (s): s is ts.ExportAssignment | ts.FunctionDeclaration | ts.ClassDeclaration =>
      (ts.isExportAssignment(s) && !s.isExportEquals) || ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && isDefaultExport(s)),
  );
  if (!statement) return undefined;
  // A named one also binds its name in the module: another declaration of that name would merge with it.
  const name = ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) ? statement.name : undefined;
  if (name && declaredBinding(name, FileIndex.of(file).rawIdentifiers(name.text)) !== statement) return undefined;
  return { declaration: statement, file };
}

function isDefaultExport(statement: ts.FunctionDeclaration | ts.ClassDeclaration): boolean {
  const modifiers = ts.getModifiers(statement) ?? [];
  return modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) && modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
}
