import { dirname, relative, resolve } from "node:path";
import ts from "typescript";

/** One import of a file: the line of the statement, and whether it loads the target at run time. */
export interface ImportEdge {
  line: number;
  value: boolean;
}

/** Per source file (relative to `root`): the files it imports, each with its {@link ImportEdge}. */
export type ImportGraph = Map<string, Map<string, ImportEdge>>;

/**
 * The import graph of the files of a TypeScript project under `root`: an edge for every static
 * import or re-export. It is a value edge when it still exists in the emitted JavaScript (a
 * side-effect import, `export *`, or a name with a value meaning), not when it is type-only
 * (`import type`, `{ type X }`, or a name that is only a type, which the compiler elides).
 * Dynamic `import()` is loaded later, never part of a load-time cycle, and is left out.
 */
export function importGraph(tsconfigPath: string, root: string): ImportGraph {
  const config = ts.getParsedCommandLineOfConfigFile(tsconfigPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n")); } });
  if (!config) throw new Error(`cannot read ${tsconfigPath}`);
  const program = ts.createProgram({ rootNames: config.fileNames, options: { ...config.options, noEmit: true } });
  const checker = program.getTypeChecker();
  const inside = (file: string): boolean => !relative(root, file).startsWith("..") && !file.endsWith(".d.ts");
  const graph: ImportGraph = new Map();
  for (const source of program.getSourceFiles()) {
    if (!inside(source.fileName)) continue;
    const edges = new Map<string, ImportEdge>();
    graph.set(relative(root, source.fileName), edges);
    for (const statement of source.statements) {
      const specifier = (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) ? statement.moduleSpecifier : undefined;
      if (!specifier || !ts.isStringLiteral(specifier)) continue;
      const target = checker.getSymbolAtLocation(specifier)?.valueDeclaration?.getSourceFile().fileName ?? resolve(dirname(source.fileName), specifier.text);
      if (!inside(target)) continue;
      const line = source.getLineAndCharacterOfPosition(statement.getStart()).line + 1;
      const value = carriesValue(statement as ts.ImportDeclaration | ts.ExportDeclaration, checker);
      const key = relative(root, target);
      const known = edges.get(key);
      edges.set(key, { line: known?.line ?? line, value: value || known?.value === true });
    }
  }
  return graph;
}

function carriesValue(statement: ts.ImportDeclaration | ts.ExportDeclaration, checker: ts.TypeChecker): boolean {
  if (ts.isExportDeclaration(statement)) {
    if (statement.isTypeOnly) return false;
    const clause = statement.exportClause;
    if (!clause || ts.isNamespaceExport(clause)) return true;
    return clause.elements.some((element) => !element.isTypeOnly && hasValue(checker.getExportSpecifierLocalTargetSymbol(element), checker));
  }
  const clause = statement.importClause;
  if (!clause) return true; // import "x": run for its effects
  if (clause.isTypeOnly) return false;
  if (clause.name && hasValue(checker.getSymbolAtLocation(clause.name), checker)) return true;
  const bindings = clause.namedBindings;
  if (!bindings) return false;
  if (ts.isNamespaceImport(bindings)) return true;
  return bindings.elements.some((element) => !element.isTypeOnly && hasValue(checker.getSymbolAtLocation(element.name), checker));
}

function hasValue(symbol: ts.Symbol | undefined, checker: ts.TypeChecker): boolean {
  if (!symbol) return true; // unresolved: assume the worst
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return (target.flags & ts.SymbolFlags.Value) !== 0;
}

/** The graph's value-import cycles: each strongly connected group of two or more files (or a file importing itself), files sorted. */
export function importCycles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative over an explicit stack so a deep graph cannot overflow.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; targets: string[]; at: number }> = [];
    const enter = (node: string): void => {
      index.set(node, next);
      low.set(node, next++);
      stack.push(node);
      onStack.add(node);
      work.push({ node, targets: [...(graph.get(node) ?? [])].filter(([, edge]) => edge.value).map(([target]) => target), at: 0 });
    };
    enter(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      if (frame.at < frame.targets.length) {
        const target = frame.targets[frame.at++]!;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== frame.node);
      if (group.length > 1 || graph.get(frame.node)?.get(frame.node)?.value === true) groups.push(group.sort());
    }
  }
  return groups;
}
