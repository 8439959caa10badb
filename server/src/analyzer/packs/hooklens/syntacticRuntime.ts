import { HookPoint } from "@hooklens/runtime";
import { ts, type Node } from "ts-morph";
import { aliasRenames } from "../../engine/aliasRenames.js";
import { FileIndex } from "../../engine/fileIndex.js";
import { declarationBehindImport, isProjectModules } from "../../engine/importedDeclarations.js";
import { isJavaScriptPath } from "../../engine/javaScriptFiles.js";
import { isRuntimeSpecifier, RUNTIME_PACKAGE } from "./runtimePackage.js";
import type { ModuleExports, Settled } from "../../engine/moduleExports.js";
import { importDeclarationOf, isImportSpecifierLiteral, isPlainRead, isReceiver, LIBRARY_CLASSES, moduleOf, privateFieldOf, SYMBOL_KINDS, TYPESCRIPT_EXTENSIONS, type ImportBinding } from "../../engine/syntaxFacts.js";
import { isBindingName, isInJsDoc, isNamePosition, soleBinding } from "../../engine/soleBinding.js";

const HOOK_POINT_VALUES: ReadonlyMap<string, string> = new Map(Object.entries(HookPoint));
const VALID_HOOK_POINTS: ReadonlySet<string> = new Set(HOOK_POINT_VALUES.values());

/**
 * Properties the runtime declares as an instance of one of its classes, by owning class and
 * property (`session.hooks` is a HookBus). Only plain class types: `Branch.hooks` is `HookBus |
 * null`, which the checker reads differently with and without strictNullChecks. Tested against
 * the runtime's declarations (syntacticRuntime.test.ts).
 */
const RUNTIME_PROPERTY_CLASSES: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  ["Session", new Map([["hooks", "HookBus"]])],
  ["IModel", new Map([["hookRegistry", "HookRegistry"]])],
]);

/** A module that does not export a name at all (through its `export *`s, the name may come from elsewhere). */
const ABSENT = Symbol("absent");

/**
 * The runtime resolver's questions answered from syntax alone where syntax settles them, with
 * the same answer the type checker gives: a name bound (as the only declaration of it in the
 * file) by an import from the runtime, or from a module that re-exports the runtime through plain
 * `export { X } from` / `export * from` chains; an instance made with `new` of such a name, or a
 * runtime property of one (`session.hooks`); a hook point written as a literal or as a member of
 * the runtime's HookPoint. Names are placed in their block scopes. Anything else (shadowed
 * names, default or namespace objects, CommonJS, JS files, unusual re-exports) is undefined.
 */
export class SyntacticRuntime {
  readonly #modules: ModuleExports | undefined;
  readonly #isRuntimeFile: (path: string) => boolean;
  /** Routes followed through other modules, for this analysis. */
  readonly #routes = new Map<string, Settled<string | null | typeof ABSENT>>();

  constructor(isRuntimeFile: (path: string) => boolean, modules?: ModuleExports) {
    this.#isRuntimeFile = isRuntimeFile;
    this.#modules = modules;
  }

  /** As `RuntimeResolver.exportName` (once its import pre-filter has passed): the runtime export `node` names. */
  exportName(node: Node): Settled<string | null> {
    return this.#exportName(node.compilerNode, FileIndex.of(node.getSourceFile()));
  }

  #exportName(node: ts.Node, index: FileIndex): Settled<string | null> {
    // The checker has no symbol for a call, a `new`, a parenthesised or asserted expression…: no runtime name either.
    if (!SYMBOL_KINDS.has(node.kind)) return null;
    const file = index.sourceFile.compilerNode;
    if (this.#isRuntimeFile(file.fileName)) return undefined;
    if (ts.isIdentifier(node)) return this.#importedName(node, index);
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && ts.isIdentifier(node.name)) {
      const binding = this.#binding(node.expression, index);
      if (binding && ts.isNamespaceImport(binding) && isRuntimeSpecifier(moduleOf(binding.parent.parent) ?? "")) return node.name.getText(file);
      // A member of what a module off the runtime's side exports (`assert.equal`, `z.object`): nothing of the runtime.
      if (this.#importedOffRuntimeSide(node.expression, index)) return null;
    }
    return undefined;
  }

  /**
   * Whether a property access `r.w` certainly does not denote the runtime export `name` (≠ w):
   * the property the checker finds is either declared under the name `w`, or an alias, and an
   * alias stands for another name only where the program renames something to `w`
   * (`aliasRenames.ts`). `program` is asked only for such a property.
   */
  namedOtherwise(node: Node, name: string, program: () => ts.Program): boolean {
    const access = node.compilerNode;
    if (!ts.isPropertyAccessExpression(access) || !ts.isIdentifier(access.name) || access.name.text === name) return false;
    // A member of a runtime class's instance, or of any value whose members syntax knows to be declared, is no alias.
    const index = FileIndex.of(node.getSourceFile());
    if (this.#instanceClassIn(access.expression, index) !== undefined || this.#holdsNoAliases(access.expression, index, 0)) return true;
    return aliasRenames(program())?.has(access.name.text) === false;
  }

  /**
   * Whether `node` is a name this file imports from a module off the runtime's side (see below):
   * its type is made of declarations off that side only, so it is no instance of a runtime class
   * (nor of a subclass of one) either.
   */
  importedOffRuntimeSide(node: Node): boolean {
    return ts.isExpression(node.compilerNode) && this.#importedOffRuntimeSide(node.compilerNode, FileIndex.of(node.getSourceFile()));
  }

  /**
   * Whether `expression` is a name this file imports (default, namespace or named) from a module off
   * the runtime's side (`assert` from "node:assert/strict", `z` from "zod", `path` from
   * "node:path"): the type of an import does not depend on the importer, and every declaration it
   * is made of lies off that side, so none of its members is an alias of a runtime binding.
   */
  #importedOffRuntimeSide(expression: ts.Expression, index: FileIndex): boolean {
    const file = index.sourceFile.compilerNode;
    if (!ts.isIdentifier(expression) || isJavaScriptPath(file.fileName) || this.#isRuntimeFile(file.fileName) || !this.#modules?.isOffRuntimeSide) return false;
    const binding = this.#binding(expression, index);
    const declaration = binding && importDeclarationOf(binding);
    const module = declaration && moduleOf(declaration);
    // Narrowed (`if (api instanceof HookBus)`), a name's type would hold the runtime's too: every mention must be a plain read.
    if (module === undefined || !this.#onlyPlainReads(expression.text, binding as ImportBinding, index)) return false;
    return this.#modules.isOffRuntimeSide(module, file.fileName);
  }

  /**
   * The runtime class whose instance `node` certainly is, with no narrowing: `new X(…)` where X is
   * a runtime export; a property of such an instance that the runtime declares as another runtime
   * class (`session.hooks`, see RUNTIME_PROPERTY_CLASSES); or a name bound to `const x = <one of
   * those>` or `let x = …` (no type annotation). Every other mention of the name (and of the
   * property) must be a read that cannot narrow or assign it: `x.member`, `return x`, or the
   * initializer of another `const`.
   */
  constructedWith(node: Node): Settled<string> {
    return this.#instanceClassIn(node.compilerNode, FileIndex.of(node.getSourceFile()));
  }

  /**
   * Whether every member of the value `expression` evaluates to is certainly declared under its
   * own name (none is an alias, as a module namespace's members are): a literal array or string,
   * `new C()` of a class that extends nothing (declared here or exported by a project module) or
   * of a standard library class, and a private field initialised with one. TypeScript files only:
   * JSDoc can give a JavaScript value another type.
   */
  #holdsNoAliases(expression: ts.Expression, index: FileIndex, depth: number): boolean {
    if (depth > 4 || isJavaScriptPath(index.sourceFile.compilerNode.fileName)) return false;
    if (ts.isParenthesizedExpression(expression)) return this.#holdsNoAliases(expression.expression, index, depth + 1);
    if (ts.isArrayLiteralExpression(expression) || ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression) || ts.isTemplateExpression(expression)) return true;
    if (ts.isNewExpression(expression)) return ts.isIdentifier(expression.expression) && this.#isPlainClass(expression.expression, index);
    if (!ts.isPropertyAccessExpression(expression) || expression.expression.kind !== ts.SyntaxKind.ThisKeyword || !ts.isPrivateIdentifier(expression.name)) return false;
    const field = privateFieldOf(expression.name);
    return field !== undefined && !field.type && field.initializer !== undefined && this.#holdsNoAliases(field.initializer, index, depth + 1);
  }

  /** Whether a name denotes a class that extends and implements nothing (its instances have only the members it declares). */
  #isPlainClass(name: ts.Identifier, index: FileIndex): boolean {
    const binding = this.#binding(name, index);
    if (!binding) return LIBRARY_CLASSES.has(name.text) && !index.rawIdentifiers(name.text).some(isBindingName);
    if (ts.isClassDeclaration(binding)) return !binding.heritageClauses;
    if (!ts.isImportSpecifier(binding) || !this.#modules) return false;
    const module = moduleOf(binding.parent.parent.parent);
    const resolved = module === undefined ? undefined : this.#modules.resolve(module, index.sourceFile.compilerNode.fileName);
    if (!resolved || resolved.isExternalLibraryImport || isJavaScriptPath(resolved.resolvedFileName)) return false;
    const facts = this.#modules.exportsOf(resolved.resolvedFileName);
    const routes = facts && !facts.opaque ? facts.named.get((binding.propertyName ?? binding.name).text) : undefined;
    return routes?.length === 1 && routes[0]!.kind === "declared" && routes[0]!.plainClass === true;
  }

  #instanceClassIn(expression: ts.Node, index: FileIndex): Settled<string> {
    const file = index.sourceFile.compilerNode;
    if (isJavaScriptPath(file.fileName) || this.#isRuntimeFile(file.fileName)) return undefined;
    return this.#instanceClass(expression, index, 0);
  }

  #instanceClass(expression: ts.Node, index: FileIndex, depth: number): Settled<string> {
    if (depth > 8) return undefined;
    if (ts.isNewExpression(expression)) return this.#exportName(expression.expression, index) ?? undefined;
    if (ts.isPropertyAccessExpression(expression)) return this.#propertyClass(expression, index, depth);
    if (!ts.isIdentifier(expression)) return undefined;
    const declaration = this.#binding(expression, index);
    if (declaration && ts.isImportSpecifier(declaration)) return this.#importedClass(declaration, index, depth);
    return declaration && ts.isVariableDeclaration(declaration) ? this.#variableClass(declaration, index, depth) : undefined;
  }

  /** A `const` (or a `let` never assigned again) with no type of its own: the class its initializer makes. */
  #variableClass(declaration: ts.VariableDeclaration, index: FileIndex, depth: number): Settled<string> {
    if (declaration.type || declaration.exclamationToken || !ts.isIdentifier(declaration.name)) return undefined;
    const blockScoped = declaration.parent.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const | ts.NodeFlags.Using);
    const initializer = declaration.initializer;
    // A `let` whose every mention is a plain read is never assigned again: it holds its initializer as a `const` would.
    if ((blockScoped !== ts.NodeFlags.Const && blockScoped !== ts.NodeFlags.Let) || !initializer || !this.#onlyPlainReads(declaration.name.text, declaration, index)) return undefined;
    return this.#instanceClass(initializer, index, depth + 1);
  }

  /**
   * A name imported from a project module that exports it as such a variable (`export const bus =
   * new HookBus()`): the importer sees the variable's declared type, which its initializer gives,
   * narrowed only where the importer narrows it (every mention here must be a plain read). The
   * runtime must resolve from that module too: else the checker sees no class there at all.
   */
  #importedClass(specifier: ts.ImportSpecifier, index: FileIndex, depth: number): Settled<string> {
    const modules = this.#modules;
    if (!isProjectModules(modules) || !this.#onlyPlainReads(specifier.name.text, specifier, index)) return undefined;
    const found = declarationBehindImport(specifier, index.sourceFile, modules);
    if (!found || !ts.isVariableDeclaration(found.declaration)) return undefined;
    const path = found.file.getFilePath();
    if (isJavaScriptPath(path) || this.#isRuntimeFile(path) || !this.#runtimeResolvesFrom(path)) return undefined;
    return this.#variableClass(found.declaration, FileIndex.of(found.file), depth + 1);
  }

  /** `x.p` where x is certainly a runtime class's instance and the runtime declares `p` as an instance of another. */
  #propertyClass(access: ts.PropertyAccessExpression, index: FileIndex, depth: number): Settled<string> {
    const receiver = access.expression;
    if (!ts.isIdentifier(access.name) || !(ts.isIdentifier(receiver) || ts.isNewExpression(receiver))) return undefined;
    const owner = this.#instanceClass(receiver, index, depth + 1);
    const property = owner === undefined ? undefined : RUNTIME_PROPERTY_CLASSES.get(owner)?.get(access.name.text);
    // With the runtime unresolved the checker knows no property types at all.
    if (property === undefined || !this.#runtimeResolvesFrom(index.sourceFile.compilerNode.fileName)) return undefined;
    // `new X().p` is no reference, so nothing narrows it; `x.p` is narrowed like a name: every mention of it must be a plain read.
    if (!ts.isIdentifier(receiver)) return property;
    const declaration = this.#binding(receiver, index);
    const mentions = index.rawIdentifiers(receiver.text).filter((id) => isReceiver(id) && (id.parent as ts.PropertyAccessExpression).name.text === access.name.text);
    return mentions.every((id) => this.#binding(id, index) !== declaration || isPlainRead(id.parent)) ? property : undefined;
  }

  /** Whether the runtime package resolves from `fileName` to its TypeScript declarations (the classes' members are known). */
  #runtimeResolvesFrom(fileName: string): boolean {
    const resolved = this.#modules?.resolve(RUNTIME_PACKAGE, fileName);
    return resolved !== undefined && TYPESCRIPT_EXTENSIONS.has(resolved.extension) && this.#isRuntimeFile(resolved.resolvedFileName);
  }

  /** Whether every mention of the name that refers to `declaration` reads it without narrowing it. */
  #onlyPlainReads(name: string, declaration: ts.VariableDeclaration | ImportBinding, index: FileIndex): boolean {
    // Asked again for every call on the name (`bus.on(…)` a thousand times): the answer holds for this parse.
    let plain = this.#plainReads.get(declaration);
    if (plain === undefined) {
      plain = index
        .rawIdentifiers(name)
        .every((id) => id === declaration.name || isNamePosition(id) || isInJsDoc(id) || isPlainRead(id) || this.#binding(id, index) !== declaration);
      this.#plainReads.set(declaration, plain);
    }
    return plain;
  }

  /** `#onlyPlainReads` by declaration; a declaration node belongs to one parse of one file, so the answer never goes stale. */
  readonly #plainReads = new WeakMap<ts.Node, boolean>();

  /** As `RuntimeResolver.hookPointValue`: a string literal, or `HookPoint.MEMBER` of the runtime's HookPoint. */
  hookPointValue(node: Node): Settled<string | null> {
    const argument = node.compilerNode;
    if (ts.isStringLiteral(argument) || ts.isNoSubstitutionTemplateLiteral(argument)) return VALID_HOOK_POINTS.has(argument.text) ? argument.text : null;
    // `x as HookPoint` has the enum's own type, a union of its members: no one point.
    if (ts.isAsExpression(argument)) return this.#namesHookPointType(argument.type, FileIndex.of(node.getSourceFile())) ? null : undefined;
    if (!ts.isPropertyAccessExpression(argument) || !ts.isIdentifier(argument.name)) return undefined;
    if (this.#exportName(argument.expression, FileIndex.of(node.getSourceFile())) !== "HookPoint") return undefined;
    return HOOK_POINT_VALUES.get(argument.name.text) ?? null;
  }

  #namesHookPointType(type: ts.TypeNode, index: FileIndex): boolean {
    return ts.isTypeReferenceNode(type) && !type.typeArguments && ts.isIdentifier(type.typeName) && this.#exportName(type.typeName, index) === "HookPoint";
  }

  /**
   * Whether an import's module specifier resolves, when module resolution settles it: to a
   * TypeScript file or declarations of the runtime (what the program loads for it). Unresolved,
   * resolved to JavaScript (which the program may not load), or a specifier the checker gives no
   * symbol for (`require()` in a TypeScript file): undefined, and an ambient `declare module` could still answer.
   */
  resolvesModule(literal: Node): Settled<boolean> {
    const specifier = literal.compilerNode;
    if (!ts.isStringLiteral(specifier) || !isImportSpecifierLiteral(specifier)) return undefined;
    const resolved = this.#modules?.resolve(specifier.text, literal.getSourceFile().getFilePath());
    return resolved && TYPESCRIPT_EXTENSIONS.has(resolved.extension) && this.#isRuntimeFile(resolved.resolvedFileName) ? true : undefined;
  }

  #importedName(id: ts.Identifier, index: FileIndex): Settled<string | null> {
    const file = index.sourceFile.compilerNode;
    const specifier = this.#binding(id, index);
    if (!specifier) return undefined;
    // A name this file declares itself (a parameter, a local) is no alias: nothing of the runtime.
    if (!ts.isImportSpecifier(specifier) && !ts.isImportClause(specifier) && !ts.isNamespaceImport(specifier)) return null;
    const declaration = importDeclarationOf(specifier);
    const module = declaration && moduleOf(declaration);
    if (module === undefined) return undefined;
    // Imported from a module off the runtime's side (`fileURLToPath` from "node:url"): the alias chain stays off it.
    const offSide = () => (!isRuntimeSpecifier(module) && this.#modules?.isOffRuntimeSide?.(module, file.fileName) ? null : undefined);
    if (!ts.isImportSpecifier(specifier)) return offSide();
    // The name the checker's alias chain reads off the import specifier, as written.
    const nameNode = specifier.propertyName ?? specifier.name;
    const name = ts.isStringLiteral(nameNode) ? nameNode.text : nameNode.getText(file);
    if (isRuntimeSpecifier(module)) return name;
    const routed = this.#hop(module, file.fileName, name, 0);
    return routed === ABSENT || routed === undefined ? offSide() : routed;
  }

  /** What the module `specifier` names (from `from`) exports as `name`: a runtime export name, null (something else), absent. */
  #hop(specifier: string, from: string, name: string, hops: number): Settled<string | null | typeof ABSENT> {
    const resolved = this.#modules?.resolve(specifier, from);
    if (!resolved) return undefined;
    const target = resolved.resolvedFileName;
    const routed = this.#route(target, name, hops + 1);
    // A project module that hands no hook library on may be left out of the program (its imports
    // unresolved there): a runtime name found behind it is not one the checker would see.
    const inProgram = resolved.isExternalLibraryImport || this.#modules!.isHookLibraryFile(target) || this.#modules!.exposesHookLibrary(target);
    return typeof routed === "string" && !inProgram ? undefined : routed;
  }

  #route(path: string, name: string, hops: number): Settled<string | null | typeof ABSENT> {
    const key = `${path}\0${name}`;
    if (this.#routes.has(key)) return this.#routes.get(key);
    this.#routes.set(key, undefined); // a cycle settles nothing
    const routed = hops > 16 ? undefined : this.#routeOnce(path, name, hops);
    this.#routes.set(key, routed);
    return routed;
  }

  #routeOnce(path: string, name: string, hops: number): Settled<string | null | typeof ABSENT> {
    if (isJavaScriptPath(path)) return undefined;
    const facts = this.#modules!.exportsOf(path);
    if (!facts || facts.opaque) return undefined;
    const routes = facts.named.get(name);
    if (routes) {
      // Declared here (overloads and merged declarations are several): the chain ends in this module.
      if (routes.every((route) => route.kind === "declared")) return this.#isRuntimeFile(path) ? (name === "default" ? undefined : name) : null;
      const [only] = routes;
      if (routes.length !== 1 || only?.kind !== "reexport") return undefined;
      return isRuntimeSpecifier(only.module) ? only.name : this.#hop(only.module, path, only.name, hops);
    }
    // `export *` never re-exports a default; a name found through two of them is ambiguous.
    if (name === "default") return undefined;
    let found: string | null | typeof ABSENT = ABSENT;
    for (const module of facts.stars) {
      const routed = this.#hop(module, path, name, hops);
      if (routed === undefined || (routed !== ABSENT && found !== ABSENT)) return undefined;
      if (routed !== ABSENT) found = routed;
    }
    return found;
  }

  #binding(reference: ts.Identifier, index: FileIndex): ts.Declaration | undefined {
    return soleBinding(reference, index.rawIdentifiers(reference.text));
  }
}
