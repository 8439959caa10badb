import { bindingOf, declaresName, localDeclarationOf } from "./bindings.js";
import { FileIndex } from "./fileIndex.js";
import { importedDeclarationOf } from "./importedDeclarations.js";
import { Node, type ArrowFunction, type FunctionDeclaration, type FunctionExpression, type MethodDeclaration, type PropertyAccessExpression } from "ts-morph";
import { isWriteTarget } from "./expressions.js";

export type FunctionLike = ArrowFunction | FunctionExpression | FunctionDeclaration | MethodDeclaration;

/**
 * The function an argument denotes: an inline arrow or function expression, or (followed one
 * step) a function declaration or a `const` initialised with one, here or imported from a
 * project module, or a static method of a class of this file (`Handlers.onToolPre`). Null when it
 * cannot be known without running code.
 */
export function functionOf(node: Node): FunctionLike | null {
  if (Node.isArrowFunction(node) || Node.isFunctionExpression(node)) return node;
  if (Node.isParenthesizedExpression(node)) return functionOf(node.getExpression());
  if (Node.isPropertyAccessExpression(node)) return staticMethodOf(node);
  if (!Node.isIdentifier(node)) return null;
  // A name of this file that syntax places, or a global of the standard library declared as a variable (`String`): no checker needed.
  const local = localDeclarationOf(node);
  if (local) return functionDeclaredBy(local);
  if (LIBRARY_VARIABLES.has(node.getText()) && !declaresName(node, node.getText())) return null;
  // Imported from a project module whose declaration syntax finds: the checker's aliased symbol has that one declaration.
  const imported = importedDeclarationOf(node);
  if (imported) return functionDeclaredBy(imported);
  for (const declaration of node.getSymbol()?.getAliasedSymbol()?.getDeclarations() ?? node.getSymbol()?.getDeclarations() ?? []) {
    const fn = functionDeclaredBy(declaration);
    if (fn) return fn;
  }
  return null;
}

/**
 * `C.m` where C is a class this file declares (syntax places the name) that extends nothing, and
 * its one member named `m` is a static method with a body: what `C.m` evaluates to, unless code
 * assigns to `C.m` (then null).
 */
function staticMethodOf(access: PropertyAccessExpression): FunctionLike | null {
  const receiver = access.getExpression();
  if (!Node.isIdentifier(receiver)) return null;
  const declaration = localDeclarationOf(receiver);
  if (!declaration || !Node.isClassDeclaration(declaration) || declaration.getHeritageClauses().length > 0) return null;
  const members = declaration.getMembers().filter((member) => Node.isMethodDeclaration(member) || Node.isPropertyDeclaration(member) || Node.isGetAccessorDeclaration(member) || Node.isSetAccessorDeclaration(member)).filter((member) => member.getName() === access.getName());
  const [only] = members;
  if (members.length !== 1 || !Node.isMethodDeclaration(only) || !only.isStatic() || !only.getBody()) return null;
  const assigned = FileIndex.of(access.getSourceFile())
    .identifiers(access.getName(), access.getSourceFile())
    .some((id) => { const parent = id.getParent(); return Node.isPropertyAccessExpression(parent) && parent.getNameNode() === id && isWriteTarget(parent); });
  return assigned ? null : only;
}

/** Globals that TypeScript's libraries (and Node's types) declare as variables or namespaces, never as functions. */
const LIBRARY_VARIABLES: ReadonlySet<string> = new Set([
  "Object", "Function", "String", "Number", "Boolean", "Symbol", "BigInt", "Array", "Date", "RegExp", "Error", "JSON", "Math",
  "Promise", "Map", "Set", "WeakMap", "WeakSet", "Proxy", "Reflect", "console",
]);

function functionDeclaredBy(declaration: Node): FunctionLike | null {
  if (Node.isFunctionDeclaration(declaration) || Node.isMethodDeclaration(declaration)) return declaration;
  if (Node.isVariableDeclaration(declaration)) {
    const initializer = declaration.getInitializer();
    if (initializer && (Node.isArrowFunction(initializer) || Node.isFunctionExpression(initializer))) return initializer;
  }
  return null;
}

/** Whether the parameter at `index` is read anywhere in the function's body (a local walk, no project-wide search). */
export function isParameterUsed(fn: FunctionLike, index: number): boolean {
  const parameter = fn.getParameters()[index];
  if (!parameter) return false;
  const name = parameter.getNameNode();
  if (!Node.isIdentifier(name)) return true; // a destructuring pattern reads its properties
  const text = name.getText();
  const body = fn.getBody();
  const mentions = (body ? FileIndex.of(fn.getSourceFile()).identifiers(name.compilerNode.text, body) : []).filter((identifier) => identifier.getText() === text);
  // No mention of the name at all: unused, without asking the checker for the parameter's symbol.
  if (mentions.length === 0) return false;
  const binding = bindingOf(name);
  return mentions.some((identifier) => Node.isIdentifier(identifier) && bindingOf(identifier) === binding);
}
