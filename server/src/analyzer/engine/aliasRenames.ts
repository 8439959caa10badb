import { ts } from "ts-morph";
import { isJavaScriptPath } from "./javaScriptFiles.js";

const byFile = new WeakMap<ts.SourceFile, readonly string[]>();
const byProgram = new WeakMap<ts.Program, ReadonlySet<string> | null>();

/**
 * Every name under which an alias somewhere in the program may stand for a declaration of
 * another name: the outer name of a renaming import or export specifier (`hook as on`), a default
 * import, `import x = …`, `export * as ns`, and `default` where a module has an export
 * assignment. Only through such an alias can a property `r.on` denote an export that is not
 * called `on`: a property the checker finds that is no alias is a member declared under the name
 * it was looked up by. Null when the program holds JavaScript, whose CommonJS forms
 * (`module.exports = { on: hook }`) make aliases too. Kept per parsed file and per program.
 */
export function aliasRenames(program: ts.Program): ReadonlySet<string> | null {
  if (byProgram.has(program)) return byProgram.get(program)!;
  let names: Set<string> | null = new Set<string>();
  for (const file of program.getSourceFiles()) {
    if (isJavaScriptPath(file.fileName)) {
      names = null;
      break;
    }
    for (const name of renamesOf(file)) names.add(name);
  }
  byProgram.set(program, names);
  return names;
}

function renamesOf(file: ts.SourceFile): readonly string[] {
  let names = byFile.get(file);
  if (!names) byFile.set(file, (names = collect(file.statements, [])));
  return names;
}

/** Imports and exports sit at the top of a module or of a `declare module`/namespace body: no deeper walk is needed. */
function collect(statements: readonly ts.Statement[], into: string[]): string[] {
  for (const statement of statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.name) into.push(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) into.push(bindings.name.text);
      else if (bindings) for (const element of bindings.elements) if (element.propertyName) into.push(element.name.text);
    } else if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause && ts.isNamespaceExport(clause)) into.push(clause.name.text);
      else if (clause) for (const element of clause.elements) if (element.propertyName) into.push(element.name.text);
    } else if (ts.isExportAssignment(statement)) {
      into.push("default");
    } else if (ts.isImportEqualsDeclaration(statement)) {
      into.push(statement.name.text);
    } else if (ts.isModuleDeclaration(statement)) {
      let body = statement.body;
      while (body && ts.isModuleDeclaration(body)) body = body.body;
      if (body && ts.isModuleBlock(body)) collect(body.statements, into);
    }
  }
  return into;
}
