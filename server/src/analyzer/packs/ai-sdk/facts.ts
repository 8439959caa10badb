import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { FileIndex } from "../../engine/fileIndex.js";
import { Node, SyntaxKind, ts, type CallExpression, type Expression, type ObjectLiteralExpression, type SourceFile } from "ts-morph";

/** The AI SDK's package name (an npm alias such as `ai-v6` installs a package of this name). */
export const AI_PACKAGE = "ai";

/** What the AI SDK rules share about one file: which calls are the SDK's, and option objects read. */
export interface AiSdkFacts {
  /** The file's calls whose callee is the AI SDK export `name` (imported under any name, through any module). */
  callsOf(name: string): CallExpression[];
  /** Whether `node` refers to the AI SDK export `name`. */
  isAiExport(node: Node, name: string): boolean;
  /** The installed `ai` version this file's imports resolve to (`7.0.173`), or undefined. */
  installedVersion(): string | undefined;
}

export function aiSdkFacts(sourceFile: SourceFile): AiSdkFacts {
  const calls = new Map<string, CallExpression[]>();
  let version: string | undefined | null = null;
  const candidates = FileIndex.of(sourceFile).wrapped(SyntaxKind.CallExpression);
  return {
    callsOf(name) {
      let found = calls.get(name);
      if (!found) {
        found = candidates.filter((call) => mayName(call.getExpression(), name, sourceFile) && isAiExportSymbol(call.getExpression(), name));
        calls.set(name, found);
      }
      return found;
    },
    isAiExport: (node, name) => isAiExportSymbol(node, name),
    installedVersion() {
      if (version === null) {
        version = undefined;
        for (const declaration of sourceFile.getImportDeclarations()) {
          const file = declaration.getModuleSpecifierSourceFile();
          const pkg = file ? packageOf(file.getFilePath()) : undefined;
          if (pkg?.name === AI_PACKAGE) {
            version = pkg.version;
            break;
          }
        }
      }
      return version;
    },
  };
}

/**
 * A syntactic first sift: the callee ends in `name` (`generateText`, `ai.generateText`), or is a
 * name an import binds (an alias, `import { generateText as gen }`, or a project module's re-export).
 */
function mayName(callee: Node, name: string, sourceFile: SourceFile): boolean {
  if (Node.isPropertyAccessExpression(callee)) return callee.getName() === name;
  if (!Node.isIdentifier(callee)) return false;
  if (callee.getText() === name) return true;
  const text = callee.getText();
  return sourceFile.getImportDeclarations().some((d) => d.getNamedImports().some((n) => (n.getAliasNode()?.getText() ?? n.getName()) === text));
}

/**
 * Whether `node` names the AI SDK export `name`: some link of its alias chain (a local rename, a
 * project module's re-export, the package's own `export { tool$1 as tool }`) bears that name, and
 * the chain ends in a declaration of the `ai` package.
 */
function isAiExportSymbol(node: Node, name: string): boolean {
  const target = Node.isPropertyAccessExpression(node) ? node.getNameNode() : node;
  const start = target.getSymbol()?.compilerSymbol;
  if (!start) return false;
  const checker = node.getProject().getTypeChecker().compilerObject;
  let symbol: ts.Symbol | undefined = start;
  let named = false;
  let inAi = false;
  for (let hops = 0; symbol && hops < 16; hops++) {
    named ||= symbol.getName() === name;
    // The package may re-export what it imports (`export { tool$1 as tool }` of provider-utils):
    // a link in the `ai` package is enough.
    inAi ||= (symbol.getDeclarations() ?? []).some((declaration) => packageOf(declaration.getSourceFile().fileName)?.name === AI_PACKAGE);
    if (!(symbol.flags & ts.SymbolFlags.Alias)) break;
    symbol = checker.getImmediateAliasedSymbol(symbol);
  }
  return named && inAi;
}

/** The symbol of the value an identifier names (for `{ model }`, the variable, not the property). */
export function valueSymbolOf(identifier: Node): ts.Symbol | undefined {
  const parent = identifier.getParent();
  const checker = identifier.getProject().getTypeChecker().compilerObject;
  if (parent && Node.isShorthandPropertyAssignment(parent) && parent.getNameNode() === identifier) {
    return checker.getShorthandAssignmentValueSymbol(parent.compilerNode);
  }
  return identifier.getSymbol()?.compilerSymbol;
}

/** The declaration a value identifier resolves to, through imports and re-exports. */
export function valueDeclarationOf(identifier: Node): ts.Declaration | undefined {
  let symbol = valueSymbolOf(identifier);
  const checker = identifier.getProject().getTypeChecker().compilerObject;
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return symbol?.valueDeclaration;
}

interface PackageInfo {
  name: string | undefined;
  version: string | undefined;
}

const packageByFolder = new Map<string, PackageInfo | undefined>();

/** The package.json nearest above `file` (cached per folder): its name and version. */
export function packageOf(file: string): PackageInfo | undefined {
  const folder = dirname(file);
  if (packageByFolder.has(folder)) return packageByFolder.get(folder);
  let found: PackageInfo | undefined;
  const manifest = join(folder, "package.json");
  if (existsSync(manifest)) {
    try {
      const json = JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown; version?: unknown };
      // Folders such as dist/esm carry a package.json with only "type": keep looking above them.
      if (typeof json.name === "string") found = { name: json.name, version: typeof json.version === "string" ? json.version : undefined };
    } catch {
      found = undefined;
    }
  }
  if (!found && dirname(folder) !== folder) found = packageOf(folder);
  packageByFolder.set(folder, found);
  return found;
}

/**
 * The object literal an expression stands for: the literal itself, or a `const` initialised with
 * one (in this file or another module); undefined for anything else (precision first).
 */
export function objectLiteralOf(expression: Node | undefined): ObjectLiteralExpression | undefined {
  let node: Node | undefined = expression;
  for (let hops = 0; node && hops < 4; hops++) {
    node = unwrap(node);
    if (Node.isObjectLiteralExpression(node)) return node;
    if (!Node.isIdentifier(node)) return undefined;
    const compiled = valueDeclarationOf(node);
    const declaration = compiled ? node.getSourceFile().getProject().getSourceFile(compiled.getSourceFile().fileName)?.getDescendantAtPos(compiled.getStart())?.getFirstAncestorByKind(SyntaxKind.VariableDeclaration) : undefined;
    if (!declaration || declaration.compilerNode !== compiled) return undefined;
    const list = declaration.getVariableStatement();
    if (!list || list.getDeclarationKind() !== "const") return undefined;
    node = declaration.getInitializer();
  }
  return undefined;
}

/** `(x)`, `x as T`, `x satisfies T`, `<T>x`, `x!` → `x`. */
export function unwrap(node: Node): Node {
  let current = node;
  while (Node.isParenthesizedExpression(current) || Node.isAsExpression(current) || Node.isSatisfiesExpression(current) || Node.isTypeAssertion(current) || Node.isNonNullExpression(current)) {
    current = current.getExpression();
  }
  return current;
}

/** An object literal's own property names, and whether a spread it holds could add others. */
export interface OptionNames {
  readonly names: Map<string, Node>;
  /** A spread of something other than a resolvable object literal: absent names cannot be told. */
  readonly open: boolean;
}

export function optionNames(object: ObjectLiteralExpression, depth = 0): OptionNames {
  const names = new Map<string, Node>();
  let open = false;
  for (const property of object.getProperties()) {
    if (Node.isSpreadAssignment(property)) {
      const spread = depth < 3 ? objectLiteralOf(property.getExpression()) : undefined;
      if (!spread) {
        open = true;
        continue;
      }
      const inner = optionNames(spread, depth + 1);
      for (const name of inner.names.keys()) if (!names.has(name)) names.set(name, property);
      open ||= inner.open;
      continue;
    }
    const nameNode = property.getNameNode?.();
    if (!nameNode || Node.isComputedPropertyName(nameNode)) {
      open = true;
      continue;
    }
    names.set(Node.isStringLiteral(nameNode) ? nameNode.getLiteralValue() : nameNode.getText(), property);
  }
  return { names, open };
}

/** The value of a property assignment or method (the node that holds its behaviour), else undefined. */
export function propertyValue(property: Node | undefined): Expression | Node | undefined {
  if (!property) return undefined;
  if (Node.isPropertyAssignment(property)) return property.getInitializer();
  if (Node.isShorthandPropertyAssignment(property)) return property.getNameNode();
  if (Node.isMethodDeclaration(property)) return property;
  return undefined;
}

/** The major version of a semver string (`7.0.173` → 7). */
export function majorOf(version: string | undefined): number | undefined {
  const major = version ? Number.parseInt(version, 10) : Number.NaN;
  return Number.isFinite(major) ? major : undefined;
}

/** A call of an SDK function with an options object literal syntax can read. */
export interface OptionsCall {
  readonly name: string;
  readonly call: CallExpression;
  readonly options: ObjectLiteralExpression;
}

/** The calls of the SDK functions `names` in this file whose first argument is an object literal (or a `const` of one). */
export function optionsCalls(facts: AiSdkFacts, names: readonly string[]): OptionsCall[] {
  const found: OptionsCall[] = [];
  for (const name of names) {
    for (const call of facts.callsOf(name)) {
      const options = objectLiteralOf(call.getArguments()[0]);
      if (options) found.push({ name, call, options });
    }
  }
  return found;
}
