import { dirname, join } from "node:path";
import { ts, type SourceFile } from "ts-morph";
import type { ModuleExports } from "./moduleExports.js";
import type { PackFile } from "./pack.js";
import { readTextIfAny } from "./reach/diskFiles.js";
import type { PackageNames } from "./reach/packageNames.js";

/** The engine's side of a pack's facts: what a pack may ask about the file it analyses. */
export function packFile(sourceFile: SourceFile, modules: ModuleExports | undefined, packageNames: PackageNames): PackFile {
  const project = sourceFile.getProject();
  const resolve = (module: string): ts.ResolvedModuleFull | undefined =>
    modules?.resolve(module, sourceFile.getFilePath()) ?? ts.resolveModuleName(module, sourceFile.getFilePath(), project.getCompilerOptions(), ts.sys).resolvedModule;
  return {
    sourceFile,
    checker: project.getTypeChecker(),
    modules,
    packageNames,
    installedVersion: (packageName) => {
      const resolved = resolve(packageName);
      return resolved && installedVersionAbove(resolved.resolvedFileName, packageName);
    },
    exportedStrings: (module, exportName) => {
      const resolved = resolve(module);
      const program = project.getProgram().compilerObject;
      const declarations = resolved && program.getSourceFile(resolved.resolvedFileName);
      return declarations && exportedStringsOf(program.getTypeChecker(), declarations, exportName);
    },
  };
}

/** The version in the package.json of the package named `packageName` that holds `file`. */
function installedVersionAbove(file: string, packageName: string): string | undefined {
  for (let dir = dirname(file); dirname(dir) !== dir; dir = dirname(dir)) {
    const text = readTextIfAny(join(dir, "package.json"));
    if (text === undefined) continue;
    try {
      const manifest = JSON.parse(text) as { name?: unknown; version?: unknown };
      if (manifest.name === packageName) return typeof manifest.version === "string" ? manifest.version : undefined;
    } catch {
      // A package.json that does not parse belongs to no package we can name.
    }
  }
  return undefined;
}

/** The string literals of an exported constant's type: a tuple or array of them, a union, or one literal. */
function exportedStringsOf(checker: ts.TypeChecker, declarations: ts.SourceFile, exportName: string): readonly string[] | undefined {
  const moduleSymbol = checker.getSymbolAtLocation(declarations);
  const exported = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((symbol) => symbol.name === exportName);
  if (!exported) return undefined;
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const type = checker.getTypeOfSymbol(symbol);
  const elements = checker.isTupleType(type) ? checker.getTypeArguments(type as ts.TypeReference) : checker.isArrayType(type) ? checker.getTypeArguments(type as ts.TypeReference) : [type];
  const strings: string[] = [];
  for (const element of elements) {
    for (const member of element.isUnion() ? element.types : [element]) {
      if (!member.isStringLiteral()) return undefined;
      strings.push(member.value);
    }
  }
  return strings;
}
