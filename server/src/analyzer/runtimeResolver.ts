import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { HookPoint } from "@hooklens/runtime";
import { importedNames, leftmostIdentifier } from "./importedNames.js";
import { Node, type ExportDeclaration, type Expression, type ImportDeclaration, type StringLiteral, type SourceFile, type Symbol as MorphSymbol, type TypeChecker, type ts } from "ts-morph";

export const RUNTIME_PACKAGE = "@hooklens/runtime";

const HOOK_POINT_VALUES: ReadonlyMap<string, string> = new Map(Object.entries(HookPoint));

/**
 * Decides, through the type checker, whether an expression denotes one of the runtime's exports.
 * Aliased imports and re-exports are followed; a local declaration that merely shares a name
 * (a user's own `enum HookPoint`) is not the runtime's. When the runtime package cannot be
 * resolved (not installed yet), the import's module specifier still identifies it.
 */
export class RuntimeResolver {
  readonly #checker: TypeChecker;
  readonly #packageNameByDir = new Map<string, string | null>();
  /** Answers of `exportName` by node: several rules ask about the same callee (`is(callee, "hook")`, then each loader, …). */
  readonly #exportNames = new Map<ts.Node, string | null>();
  /**
   * Answers of `isInstanceOf` and `hookPointValue` by node: three rules ask the same of every
   * `bus.on(…)` receiver and hook point argument, and each question walks the checker's flow
   * analysis again. One resolver serves one analysis (one checker), so an answer never goes stale.
   */
  readonly #instanceOf = new Map<ts.Node, Map<string, boolean>>();
  readonly #hookPointValues = new Map<ts.Node, string | null>();

  constructor(checker: TypeChecker) {
    this.#checker = checker;
  }

  /** The runtime export name `node` refers to (`"HookPoint"`, `"hook"`, …), or null. */
  exportName(node: Node): string | null {
    return remembered(this.#exportNames, node.compilerNode, () => this.#exportNameOf(node));
  }

  #exportNameOf(node: Node): string | null {
    if (!this.#mayDenoteImport(node)) return null;
    if (Node.isPropertyAccessExpression(node)) {
      const namespace = this.#namespaceImportOf(node.getExpression());
      if (namespace) return node.getName();
    }
    const target = Node.isPropertyAccessExpression(node) ? node.getNameNode() : node;
    const symbol = this.#checker.getSymbolAtLocation(target);
    return symbol ? this.#runtimeNameOf(symbol) : null;
  }

  /** Whether `node` is the runtime export `name`. */
  is(node: Node, name: string): boolean {
    return this.exportName(node) === name;
  }

  /** Whether an expression's value is an instance of the runtime class `className`. */
  isInstanceOf(expression: Expression, className: string): boolean {
    const byClass = remembered(this.#instanceOf, expression.compilerNode, () => new Map<string, boolean>());
    return remembered(byClass, className, () => this.#isInstanceOf(expression, className));
  }

  #isInstanceOf(expression: Expression, className: string): boolean {
    const type = expression.getType();
    const symbol = type.getSymbol() ?? type.getAliasSymbol();
    if (symbol && symbol.getName() === className && this.#declaredInRuntime(symbol)) return true;
    // Unresolved runtime: `const bus = new HookBus()` still says what `bus` is.
    if (!type.isAny() && !isErrorType(type.compilerType)) return false;
    const constructed = this.#constructedWith(expression);
    return constructed !== null && this.is(constructed, className);
  }

  /**
   * Which of the runtime classes `names` an expression's value is an instance of, looking through
   * user subclasses to their runtime base. Null when none.
   */
  runtimeClassOf(expression: Expression, names: readonly string[]): string | null {
    const pending = [expression.getType()];
    for (let hops = 0; pending.length > 0 && hops < 32; hops++) {
      const type = pending.shift()!;
      const symbol = type.getSymbol() ?? type.getAliasSymbol();
      if (symbol && names.includes(symbol.getName()) && this.#declaredInRuntime(symbol)) return symbol.getName();
      pending.push(...type.getBaseTypes());
    }
    return names.find((name) => this.isInstanceOf(expression, name)) ?? null;
  }

  /**
   * The hook point value an argument denotes: a string literal (or a constant of literal type)
   * naming a valid point, or a member of the runtime's own HookPoint enum. Null otherwise,
   * including for members of a look-alike enum.
   */
  hookPointValue(argument: Node): string | null {
    return remembered(this.#hookPointValues, argument.compilerNode, () => this.#hookPointValueOf(argument));
  }

  #hookPointValueOf(argument: Node): string | null {
    const type = argument.getType();
    if (type.isStringLiteral() || type.isEnumLiteral()) {
      const value = type.getLiteralValue();
      if (typeof value !== "string") return null;
      if (type.isEnumLiteral()) {
        const member = type.getSymbol();
        const enumDeclaration = member?.getDeclarations()[0]?.getParent();
        if (!enumDeclaration || !Node.isEnumDeclaration(enumDeclaration)) return null;
        if (enumDeclaration.getName() !== "HookPoint" || !this.#isRuntimeFile(enumDeclaration.getSourceFile())) return null;
      }
      return [...HOOK_POINT_VALUES.values()].includes(value) ? value : null;
    }
    // Unresolved runtime: `HookPoint.API_PRE_CALL` where HookPoint is imported from it.
    if (Node.isPropertyAccessExpression(argument) && this.is(argument.getExpression(), "HookPoint")) {
      return HOOK_POINT_VALUES.get(argument.getName()) ?? null;
    }
    return null;
  }

  /**
   * A syntactic pre-filter that spares the type checker most questions: outside the library's own
   * sources, only a name bound by an import (or a property path from one) can be the runtime's.
   * References that start at `this` or a call are left to the checker.
   */
  #mayDenoteImport(node: Node): boolean {
    return this.mayDenoteImport(node.compilerNode);
  }

  /**
   * The same pre-filter on a compiler node, for rules that sift a file's nodes before wrapping
   * them: false means `exportName` (and so `is`) returns null for it without asking the checker.
   */
  mayDenoteImport(node: ts.Node): boolean {
    const leftmost = leftmostIdentifier(node);
    if (!leftmost) return true;
    const file = node.getSourceFile();
    return importedNames(file).has(leftmost.text) || this.#isRuntimePath(file.fileName);
  }

  #runtimeNameOf(symbol: MorphSymbol): string | null {
    // Walk the alias chain one hop at a time: a hop that names the runtime package settles it
    // even when the package itself cannot be resolved.
    let current: MorphSymbol | undefined = symbol;
    for (let hops = 0; current && hops < 16; hops++) {
      for (const declaration of current.getDeclarations()) {
        const fromModule = importedFrom(declaration);
        if (fromModule && isRuntimeSpecifier(fromModule.module)) return fromModule.name;
      }
      if (!current.isAlias()) return this.#declaredInRuntime(current) ? current.getName() : null;
      current = current.getImmediatelyAliasedSymbol();
    }
    return null;
  }

  #namespaceImportOf(expression: Node): boolean {
    const symbol = this.#checker.getSymbolAtLocation(expression);
    const declaration = symbol?.getDeclarations()[0];
    if (!declaration || !Node.isNamespaceImport(declaration)) return false;
    const specifier = declaration.getParentOrThrow().getParentOrThrow();
    return Node.isImportDeclaration(specifier) && isRuntimeSpecifier(moduleNamedBy(specifier) ?? "");
  }

  #constructedWith(expression: Expression): Node | null {
    if (Node.isNewExpression(expression)) return expression.getExpression();
    if (!Node.isIdentifier(expression)) return null;
    const declaration = this.#checker.getSymbolAtLocation(expression)?.getDeclarations()[0];
    if (!declaration || !Node.isVariableDeclaration(declaration)) return null;
    const initializer = declaration.getInitializer();
    return initializer && Node.isNewExpression(initializer) ? initializer.getExpression() : null;
  }

  #declaredInRuntime(symbol: MorphSymbol): boolean {
    return symbol.getDeclarations().some((d) => this.#isRuntimeFile(d.getSourceFile()));
  }

  #isRuntimeFile(sourceFile: SourceFile): boolean {
    return this.#isRuntimePath(sourceFile.getFilePath());
  }

  #isRuntimePath(filePath: string): boolean {
    return this.#packageNameOf(dirname(filePath)) === RUNTIME_PACKAGE;
  }

  /** Name of the nearest package.json above `dir` (read from disk, cached per folder). */
  #packageNameOf(dir: string): string | null {
    const cached = this.#packageNameByDir.get(dir);
    if (cached !== undefined) return cached;
    let name: string | null = null;
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        const parsed: unknown = JSON.parse(readFileSync(manifest, "utf8"));
        name = typeof parsed === "object" && parsed !== null && "name" in parsed ? String(parsed.name) : null;
      } catch {
        name = null;
      }
    } else {
      const parent = dirname(dir);
      name = parent === dir ? null : this.#packageNameOf(parent);
    }
    this.#packageNameByDir.set(dir, name);
    return name;
  }
}

/** The answer `map` holds for `key`, computed and kept on the first question. */
function remembered<K, V>(map: Map<K, V>, key: K, compute: () => V): V {
  if (map.has(key)) return map.get(key) as V;
  const value = compute();
  map.set(key, value);
  return value;
}

/** Whether a module specifier names the runtime or one of its subpaths. */
export function isRuntimeSpecifier(specifier: string): boolean {
  return specifier === RUNTIME_PACKAGE || specifier.startsWith(`${RUNTIME_PACKAGE}/`);
}

/** For an import or re-export specifier: the module it names and the exported name it takes. */
function importedFrom(declaration: Node): { module: string; name: string } | null {
  if (Node.isImportSpecifier(declaration)) {
    const module = moduleNamedBy(declaration.getImportDeclaration());
    return module ? { module, name: declaration.getName() } : null;
  }
  if (Node.isExportSpecifier(declaration)) {
    const module = moduleNamedBy(declaration.getExportDeclaration());
    return module ? { module, name: declaration.getName() } : null;
  }
  return null;
}

/**
 * The string literal naming the module of an import or export declaration, if it has one. While the
 * user types, the parser can take an unfinished `import {` together with the next line, leaving
 * something else where the specifier belongs (ts-morph's getModuleSpecifier throws on that).
 */
export function moduleSpecifierLiteral(declaration: ImportDeclaration | ExportDeclaration): StringLiteral | undefined {
  const specifier: Node | undefined = declaration.getNodeProperty("moduleSpecifier");
  return specifier && Node.isStringLiteral(specifier) ? specifier : undefined;
}

function moduleNamedBy(declaration: ImportDeclaration | ExportDeclaration): string | null {
  return moduleSpecifierLiteral(declaration)?.getLiteralValue() ?? null;
}

function isErrorType(type: ts.Type): boolean {
  return (type as { intrinsicName?: string }).intrinsicName === "error";
}
