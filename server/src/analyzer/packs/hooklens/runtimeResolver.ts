import { dirname } from "node:path";
import { HookPoint } from "@hooklens/runtime";
import { isRuntimeSpecifier, RUNTIME_PACKAGE } from "./runtimePackage.js";
import { importedNames, leftmostIdentifier } from "../../engine/importedNames.js";
import { PackageNames } from "../../engine/reach/packageNames.js";
import type { ModuleExports } from "../../engine/moduleExports.js";
import { SyntacticRuntime } from "./syntacticRuntime.js";
import { Node, type ExportDeclaration, type Expression, type ImportDeclaration, type StringLiteral, type SourceFile, type Symbol as MorphSymbol, type Type, type TypeChecker, type ts } from "ts-morph";

const HOOK_POINT_VALUES: ReadonlyMap<string, string> = new Map(Object.entries(HookPoint));

/**
 * Decides whether an expression denotes one of the runtime's exports. Aliased imports and
 * re-exports are followed; a local declaration that merely shares a name (a user's own
 * `enum HookPoint`) is not the runtime's. When the runtime package cannot be resolved (not
 * installed yet), the import's module specifier still identifies it. Questions syntax settles
 * (`syntacticRuntime.ts`) are answered without the type checker, which ts-morph builds, with its
 * program, only when a question needs it.
 */
export class RuntimeResolver {
  readonly #checker: TypeChecker;
  readonly #syntactic: SyntacticRuntime | undefined;
  readonly #packageNames: PackageNames;
  /** Answers of `exportName` by node: several rules ask about the same callee (`is(callee, "hook")`, then each loader, …). */
  readonly #exportNames = new Map<ts.Node, string | null>();
  /**
   * Answers of `isInstanceOf` and `hookPointValue` by node: three rules ask the same of every
   * `bus.on(…)` receiver and hook point argument, and each question walks the checker's flow
   * analysis again. One resolver serves one analysis (one checker), so an answer never goes stale.
   */
  readonly #instanceOf = new Map<ts.Node, Map<string, boolean>>();
  readonly #hookPointValues = new Map<ts.Node, string | null>();

  /**
   * `syntax`: answer from syntax where it settles a question; `modules` lets it follow re-exports
   * through the project's modules. Without it every question goes to the checker. `packageNames`:
   * package names by folder, kept between analyses by a caller that has them.
   */
  constructor(checker: TypeChecker, syntax?: { modules?: ModuleExports | undefined }, packageNames = new PackageNames()) {
    this.#checker = checker;
    this.#packageNames = packageNames;
    this.#syntactic = syntax && new SyntacticRuntime((path) => this.#isRuntimePath(path), syntax.modules);
  }

  /** The runtime export name `node` refers to (`"HookPoint"`, `"hook"`, …), or null. */
  exportName(node: Node): string | null {
    return remembered(this.#exportNames, node.compilerNode, () => {
      const settled = this.#settledExportName(node);
      return settled !== undefined ? settled : this.#checkedExportName(node);
    });
  }

  /** `exportName` where the pre-filter or syntax settles it, without the checker. */
  #settledExportName(node: Node): string | null | undefined {
    if (!this.#mayDenoteImport(node)) return null;
    return this.#syntactic?.exportName(node);
  }

  #checkedExportName(node: Node): string | null {
    if (Node.isPropertyAccessExpression(node)) {
      const namespace = this.#namespaceImportOf(node.getExpression());
      if (namespace) return node.getName();
    }
    const target = Node.isPropertyAccessExpression(node) ? node.getNameNode() : node;
    const symbol = this.#checker.getSymbolAtLocation(target);
    return symbol ? this.#runtimeNameOf(symbol) : null;
  }

  /**
   * Whether `node` is the runtime export `name`. A property named otherwise (`this.#items.set`,
   * `new Store().add` asked whether it is `hook`) is settled without the checker when no alias in
   * the program renames anything to its name; its export name, which is not needed, stays unknown.
   */
  is(node: Node, name: string): boolean {
    const key = node.compilerNode;
    if (!this.#exportNames.has(key)) {
      const settled = this.#settledExportName(node);
      if (settled !== undefined) this.#exportNames.set(key, settled);
      else if (this.#syntactic?.namedOtherwise(node, name, () => node.getProject().getProgram().compilerObject)) return false;
    }
    return this.exportName(node) === name;
  }

  /** Whether an expression's value is an instance of the runtime class `className`. */
  isInstanceOf(expression: Expression, className: string): boolean {
    const byClass = remembered(this.#instanceOf, expression.compilerNode, () => new Map<string, boolean>());
    return remembered(byClass, className, () => this.#isInstanceOf(expression, className));
  }

  #isInstanceOf(expression: Expression, className: string): boolean {
    // Made with `new` of the class itself: settled. Of another runtime class, which may extend it: the types say.
    if (this.#syntactic?.constructedWith(expression) === className) return true;
    if (this.#syntactic?.importedOffRuntimeSide(expression)) return false;
    const type = expression.getType();
    return this.#runtimeClassIn(type, [className]) !== null || this.#constructedUnresolved(expression, type, className);
  }

  /** The runtime class an expression is an instance of when syntax shows it exactly (`new X()`, not a subclass); undefined otherwise. */
  madeAs(expression: Expression): string | undefined {
    return this.#syntactic?.constructedWith(expression);
  }

  /**
   * Which of the runtime classes `names` an expression's value is an instance of, looking through
   * user subclasses to their runtime base. Null when none.
   */
  runtimeClassOf(expression: Expression, names: readonly string[]): string | null {
    const made = this.#syntactic?.constructedWith(expression);
    if (made !== undefined && names.includes(made)) return made;
    if (this.#syntactic?.importedOffRuntimeSide(expression)) return null;
    const type = expression.getType();
    return this.#runtimeClassIn(type, names) ?? names.find((name) => this.#constructedUnresolved(expression, type, name)) ?? null;
  }

  /** With the runtime unresolved (`type` is any), whether `const bus = new HookBus()` still says `expression` is a `className`. */
  #constructedUnresolved(expression: Expression, type: Type, className: string): boolean {
    if (!type.isAny() && !isErrorType(type.compilerType)) return false;
    const constructed = this.#constructedWith(expression);
    return constructed !== null && this.is(constructed, className);
  }

  /** The first of the runtime classes `names` that `type` is or extends (through user subclasses too); null when none. */
  #runtimeClassIn(type: Type, names: readonly string[]): string | null {
    const pending = [type];
    for (let hops = 0; pending.length > 0 && hops < 32; hops++) {
      const next = pending.shift()!;
      const symbol = next.getSymbol() ?? next.getAliasSymbol();
      if (symbol && names.includes(symbol.getName()) && this.#declaredInRuntime(symbol)) return symbol.getName();
      pending.push(...next.getBaseTypes());
    }
    return null;
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
    const settled = this.#syntactic?.hookPointValue(argument);
    if (settled !== undefined) return settled;
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

  /** Whether an import's module specifier resolves to a module (the checker has a symbol for it). */
  resolvesModule(literal: StringLiteral): boolean {
    return this.#syntactic?.resolvesModule(literal) ?? literal.getSymbol() !== undefined;
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
    // Only a name can be declared by `import * as` (a property's symbol is the export's, `this`'s the class's).
    if (!Node.isIdentifier(expression)) return false;
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
    return this.#packageNames.nameFor(dirname(filePath)) === RUNTIME_PACKAGE;
  }
}

/** The answer `map` holds for `key`, computed and kept on the first question. */
function remembered<K, V>(map: Map<K, V>, key: K, compute: () => V): V {
  if (map.has(key)) return map.get(key) as V;
  const value = compute();
  map.set(key, value);
  return value;
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
