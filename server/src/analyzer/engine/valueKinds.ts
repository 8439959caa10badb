import { ts } from "ts-morph";
import { declaresName } from "./bindings.js";
import type { SourceFile } from "ts-morph";

/** What a value is, as far as the rules that judge returned values care. */
export type ValueKind = "boolean" | "string" | "number" | "bigint" | "null" | "undefined" | "object" | "array" | "function" | "error";

/** The ES5 Error constructors (every lib has them): `new TypeError(…)` makes an Error wherever the file does not declare the name itself. */
const ERROR_CONSTRUCTORS: ReadonlySet<string> = new Set(["Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError", "URIError"]);

/** Operators whose result is a boolean whatever their operands. */
const BOOLEAN_OPERATORS: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
  ts.SyntaxKind.LessThanToken,
  ts.SyntaxKind.GreaterThanToken,
  ts.SyntaxKind.LessThanEqualsToken,
  ts.SyntaxKind.GreaterThanEqualsToken,
  ts.SyntaxKind.InstanceOfKeyword,
  ts.SyntaxKind.InKeyword,
]);

/**
 * The kinds of value an expression can have, read from its syntax alone where that settles it:
 * literals, object and array literals, functions, comparisons, `!x`, `typeof x`, `void x`,
 * `new Error(…)` of the global constructors, and conditionals of those. Undefined for anything
 * else (a name, a call, an `await`, `a || b`…): only the type checker can tell.
 *
 * An object literal that spreads something or has a `then` member is left to the checker too
 * (it may be a thenable, which the rules await); so is a mix of object-like kinds, which the
 * checker's subtype reduction can merge (`c ? [] : {}` is `{}` to it).
 */
export function valueKinds(expression: ts.Expression, file: SourceFile): ReadonlySet<ValueKind> | undefined {
  const kinds = kindsOf(expression, file, 0);
  if (!kinds) return undefined;
  const objectLike = ["object", "array", "function", "error"].filter((kind) => kinds.has(kind as ValueKind));
  return objectLike.length > 1 ? undefined : kinds;
}

function kindsOf(node: ts.Expression, file: SourceFile, depth: number): Set<ValueKind> | undefined {
  if (depth > 16) return undefined;
  switch (node.kind) {
    case ts.SyntaxKind.NumericLiteral:
      return new Set(["number"]);
    case ts.SyntaxKind.BigIntLiteral:
      return new Set(["bigint"]);
    case ts.SyntaxKind.StringLiteral:
    case ts.SyntaxKind.NoSubstitutionTemplateLiteral:
    case ts.SyntaxKind.TemplateExpression:
    case ts.SyntaxKind.TypeOfExpression:
      return new Set(["string"]);
    case ts.SyntaxKind.TrueKeyword:
    case ts.SyntaxKind.FalseKeyword:
      return new Set(["boolean"]);
    case ts.SyntaxKind.NullKeyword:
      return new Set(["null"]);
    case ts.SyntaxKind.VoidExpression:
      return new Set(["undefined"]);
    case ts.SyntaxKind.ArrayLiteralExpression:
      return new Set(["array"]);
    case ts.SyntaxKind.ArrowFunction:
    case ts.SyntaxKind.FunctionExpression:
      return new Set(["function"]);
    case ts.SyntaxKind.ObjectLiteralExpression:
      return isPlainObjectLiteral(node as ts.ObjectLiteralExpression) ? new Set(["object"]) : undefined;
    case ts.SyntaxKind.ParenthesizedExpression:
      return kindsOf((node as ts.ParenthesizedExpression).expression, file, depth + 1);
    case ts.SyntaxKind.Identifier:
      return (node as ts.Identifier).text === "undefined" && !declaresName(file, "undefined") ? new Set(["undefined"]) : undefined;
    case ts.SyntaxKind.PrefixUnaryExpression:
      return prefixKinds(node as ts.PrefixUnaryExpression);
    case ts.SyntaxKind.BinaryExpression:
      return BOOLEAN_OPERATORS.has((node as ts.BinaryExpression).operatorToken.kind) ? new Set(["boolean"]) : undefined;
    case ts.SyntaxKind.NewExpression:
      return isGlobalErrorConstruction(node as ts.NewExpression, file) ? new Set(["error"]) : undefined;
    case ts.SyntaxKind.ConditionalExpression: {
      const conditional = node as ts.ConditionalExpression;
      const whenTrue = kindsOf(conditional.whenTrue, file, depth + 1);
      const whenFalse = whenTrue && kindsOf(conditional.whenFalse, file, depth + 1);
      return whenFalse && new Set([...whenTrue!, ...whenFalse]);
    }
    default:
      return undefined;
  }
}

/** `!x` is a boolean; `-1` and `+1` (of a numeric literal) a number. */
function prefixKinds(node: ts.PrefixUnaryExpression): Set<ValueKind> | undefined {
  if (node.operator === ts.SyntaxKind.ExclamationToken) return new Set(["boolean"]);
  const numeric = node.operator === ts.SyntaxKind.MinusToken || node.operator === ts.SyntaxKind.PlusToken;
  return numeric && ts.isNumericLiteral(node.operand) ? new Set(["number"]) : undefined;
}

/** Own properties and methods only, none of them named `then` (a thenable is awaited by the rules). */
function isPlainObjectLiteral(literal: ts.ObjectLiteralExpression): boolean {
  return literal.properties.every((property) => {
    if (ts.isSpreadAssignment(property)) return false;
    const name = property.name;
    if (!name || ts.isComputedPropertyName(name)) return false;
    return !((ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name)) && name.text === "then");
  });
}

function isGlobalErrorConstruction(node: ts.NewExpression, file: SourceFile): boolean {
  const callee = node.expression;
  return ts.isIdentifier(callee) && ERROR_CONSTRUCTORS.has(callee.text) && !declaresName(file, callee.text);
}

