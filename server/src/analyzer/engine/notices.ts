import { Node, SyntaxKind, ts, type SourceFile, type StringLiteral } from "ts-morph";
import { dirname } from "node:path";
import type { AnalysisNotice } from "./analysisResult.js";
import { FileIndex } from "./fileIndex.js";
import type { HookLibraries } from "./hookLibraries.js";
import type { ModuleExports } from "./moduleExports.js";
import type { PackageNames } from "./reach/packageNames.js";
import { isImportSpecifierLiteral, TYPESCRIPT_EXTENSIONS } from "./syntaxFacts.js";

/** What telling whether a hook library import resolves needs. */
export interface LibraryResolution {
  libraries: HookLibraries;
  modules: ModuleExports | undefined;
  packageNames: PackageNames;
}

/**
 * Everything that kept one analysis from being complete. Notices point at the first hook library
 * import when the file has one (the editor shows them there); a syntax error without such an import
 * points at the error itself. Whether a library import resolves is a type-checker question only when
 * module resolution alone cannot tell; the rest is read from the parse tree.
 */
export function noticesFor(sourceFile: SourceFile, failures: readonly { code: string; error: unknown }[], resolution: LibraryResolution): AnalysisNotice[] {
  const notices: AnalysisNotice[] = [];
  const runtimeImports = libraryImportLiterals(sourceFile, resolution.libraries);
  const anchor = runtimeImports[0] ? rangeOf(runtimeImports[0].getParent() ?? runtimeImports[0]) : undefined;
  const syntax = syntaxErrorsNotice(sourceFile.compilerNode, anchor);
  if (syntax) notices.push(syntax);
  const unresolved = runtimeImports.find((literal) => !resolvesModule(literal, resolution));
  if (unresolved) {
    notices.push({
      kind: "runtime-unresolved",
      message: `Not fully analysed: "${unresolved.getLiteralValue()}" cannot be resolved from this file (not installed?); rules that need its types may miss problems.`,
      ...rangeOf(unresolved.getParent() ?? unresolved),
    });
  }
  if (failures.length > 0) {
    const codes = failures.map((f) => f.code);
    const reason = failures[0]!.error instanceof Error ? (failures[0]!.error as Error).message : String(failures[0]!.error);
    notices.push({
      kind: "rules-failed",
      message: `Not fully analysed: rule${codes.length === 1 ? "" : "s"} ${codes.join(", ")} failed on this file (${reason}).`,
      rules: codes,
      ...(anchor ?? { start: 0, end: 0 }),
    });
  }
  return notices;
}

/**
 * Module specifiers naming a hook library in top-level imports, re-exports and `require` declarations.
 * Read on the compiler nodes, and only the literals found are wrapped: wrapping every statement
 * through ts-morph cost ~1 ms per analysis, and as much again forgetting those wrappers on the next edit.
 */
function libraryImportLiterals(sourceFile: SourceFile, libraries: HookLibraries): StringLiteral[] {
  const file = sourceFile.compilerNode;
  const literals: ts.StringLiteral[] = [];
  const consider = (node: ts.Node | undefined): void => {
    if (node && ts.isStringLiteral(node) && libraries.isSpecifier(node.text)) literals.push(node);
  };
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) consider(statement.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(statement)) {
      if (ts.isExternalModuleReference(statement.moduleReference)) consider(statement.moduleReference.expression);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const initializer = declaration.initializer;
        // The callee's source text, as `Node#getText` reads it (so `\u0072equire` is not `require`).
        if (initializer && ts.isCallExpression(initializer) && initializer.expression.getText(file) === "require") consider(initializer.arguments[0]);
      }
    }
  }
  const index = FileIndex.of(sourceFile);
  return literals.map((literal) => index.wrap(literal) as StringLiteral);
}

/**
 * Whether an import's module specifier resolves. Module resolution settles it when it resolves to
 * TypeScript files or declarations of a hook library's package (what the program loads for it);
 * otherwise (unresolved, JavaScript, `require()` in a TypeScript file, an ambient `declare module`)
 * the checker's symbol for the literal says.
 */
function resolvesModule(literal: StringLiteral, { libraries, modules, packageNames }: LibraryResolution): boolean {
  const specifier = literal.compilerNode;
  if (isImportSpecifierLiteral(specifier)) {
    const resolved = modules?.resolve(specifier.text, literal.getSourceFile().getFilePath());
    const packageName = resolved && TYPESCRIPT_EXTENSIONS.has(resolved.extension) ? packageNames.nameFor(dirname(resolved.resolvedFileName)) : null;
    if (packageName !== null && libraries.isPackage(packageName)) return true;
  }
  return literal.getSymbol() !== undefined;
}

/**
 * The notice for a file the parser reported errors in, or undefined. Reads only the parser's own
 * diagnostics, which TypeScript keeps on the source file it parsed: `getSyntacticDiagnostics`
 * would build a program, and a file that needs no type checker must not pay for one.
 * `anchor` is where to show it (the runtime import); without one it sits on the first error.
 */
export function syntaxErrorsNotice(parsed: ts.SourceFile, anchor?: { start: number; end: number }): AnalysisNotice | undefined {
  const syntaxErrors = (parsed as ts.SourceFile & { parseDiagnostics?: readonly ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
  const first = syntaxErrors[0];
  if (!first) return undefined;
  const line = parsed.getLineAndCharacterOfPosition(first.start).line + 1;
  const count = syntaxErrors.length === 1 ? "a syntax error" : `${syntaxErrors.length} syntax errors`;
  return {
    kind: "syntax-errors",
    message: `Not fully analysed: ${count} (line ${line}: ${flatten(first.messageText)}); findings may be missing.`,
    ...(anchor ?? { start: first.start, end: first.start + first.length }),
  };
}

function rangeOf(node: Node): { start: number; end: number } {
  // The declaration without its trailing statement: `import { x } from "…"`.
  const target = node.getKind() === SyntaxKind.ExternalModuleReference ? node.getParentOrThrow() : node;
  return { start: target.getStart(), end: target.getEnd() };
}

function flatten(message: string | ts.DiagnosticMessageChain): string {
  return typeof message === "string" ? message : message.messageText;
}
