import { FileIndex } from "./fileIndex.js";
import { Node, type ArrowFunction, type FunctionDeclaration, type FunctionExpression, type MethodDeclaration } from "ts-morph";

export type FunctionLike = ArrowFunction | FunctionExpression | FunctionDeclaration | MethodDeclaration;

/**
 * The function an argument denotes: an inline arrow or function expression, or (followed one
 * step) a local function declaration or a `const` initialised with one. Null when it cannot be
 * known without running code.
 */
export function functionOf(node: Node): FunctionLike | null {
  if (Node.isArrowFunction(node) || Node.isFunctionExpression(node)) return node;
  if (Node.isParenthesizedExpression(node)) return functionOf(node.getExpression());
  if (!Node.isIdentifier(node)) return null;
  for (const declaration of node.getSymbol()?.getAliasedSymbol()?.getDeclarations() ?? node.getSymbol()?.getDeclarations() ?? []) {
    if (Node.isFunctionDeclaration(declaration) || Node.isMethodDeclaration(declaration)) return declaration;
    if (Node.isVariableDeclaration(declaration)) {
      const initializer = declaration.getInitializer();
      if (initializer && (Node.isArrowFunction(initializer) || Node.isFunctionExpression(initializer))) return initializer;
    }
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
  const symbol = name.getSymbol()?.compilerSymbol;
  return mentions.some((identifier) => identifier.getSymbol()?.compilerSymbol === symbol);
}
