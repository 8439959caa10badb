import { Node, SyntaxKind, ts, type Expression, type NewExpression, type Type } from "ts-morph";
import { FileIndex } from "../../../engine/fileIndex.js";
import { functionOf, type FunctionLike } from "../../../engine/functions.js";
import type { RuntimeResolver } from "../runtimeResolver.js";
import { clip } from "../../../engine/headline.js";
import type { Rule } from "../facts.js";
import { declaresName, firstDeclarationOf } from "../../../engine/bindings.js";
import { valueKinds, type ValueKind } from "../../../engine/valueKinds.js";

const WHY =
  "GuardrailHook judges what check(stage, payload) returns (awaited) strictly: true lets the call through, " +
  "false or a string blocks it with GuardrailBlocked (the string is the reason). Any other value fails the call " +
  "with ToolUsageError instead — a usage error, not a policy decision. Return true explicitly on every path that passes.";

export const guardrailCheckReturn: Rule = {
  code: "HL014",
  name: "guardrail-check-return",
  defaultSeverity: "warning",
  summary: "A GuardrailHook check that can return anything but a boolean or a string makes the hook throw ToolUsageError.",
  check(context) {
    const strictNulls = strictNullChecksOf(context.sourceFile.getProject().getCompilerOptions());
    // Any class may extend GuardrailHook, so every `new` with a first argument is a candidate.
    const candidates = FileIndex.of(context.sourceFile).wrapped(SyntaxKind.NewExpression, (construction) => (construction.arguments?.length ?? 0) > 0);
    for (const node of candidates) {
      const [check] = node.getArguments();
      if (!check || Node.isSpreadElement(check) || !constructsGuardrail(node, context.facts.runtime)) continue;
      const fn = functionOf(check);
      const bad = (fn && literalBadKinds(fn, strictNulls)) ?? checkedBadKinds(fn, check as Expression, strictNulls);
      if (!bad || bad.length === 0) continue;
      const what = bad.join(" or ");
      const inline = fn !== null && (check === fn || Node.isParenthesizedExpression(check));
      context.report({
        start: check.getStart(),
        end: inline ? headEnd(fn) : check.getEnd(),
        message: `This guardrail check can return ${clip(what, 30)}: the hook then throws ToolUsageError`,
        explanation: `${WHY}${bad.includes("undefined") ? " A path that ends without a return statement returns undefined." : ""}`,
      });
    }
  },
};

/**
 * What the check can return besides a boolean or a string, from the types (the return type of a
 * function, and whether a body without strictNullChecks can end without a return); null when
 * they say nothing.
 */
export function checkedBadKinds(fn: FunctionLike | null, check: Expression, strictNulls: boolean): string[] | null {
  const returned = fn ? fn.getReturnType() : singleSignatureReturn(check);
  const bad = returned && badReturnKinds(returned);
  if (!bad) return null;
  const fallsThrough = fn !== null && !strictNulls && endsWithoutReturn(fn);
  if (fallsThrough && !bad.includes("undefined")) bad.push("undefined");
  return bad;
}

const LATE_KINDS: readonly ValueKind[] = ["number", "bigint", "array", "function", "object", "error"];

/** Kinds of value in the words of the message; null and undefined first, as in the checker's unions. */
const KIND_WORDS: readonly [ValueKind, string][] = [
  ["undefined", "undefined"],
  ["null", "null"],
  ["number", "a number"],
  ["bigint", "a bigint"],
  ["array", "an array"],
  ["function", "a function"],
  ["object", "an object"],
  ["error", "an object"],
];

/**
 * `checkedBadKinds` for a concise arrow whose body syntax reads (`(s, p) => p > 1 ? "too many" :
 * 0`), without the checker: the same words in the same order. Undefined when syntax cannot tell,
 * or when null or undefined would widen to any (no strictNullChecks).
 */
export function literalBadKinds(fn: FunctionLike, strictNulls: boolean): string[] | undefined {
  if (!Node.isArrowFunction(fn) || fn.getReturnTypeNode()) return undefined;
  const body = fn.compilerNode.body;
  if (ts.isBlock(body)) return undefined;
  const kinds = valueKinds(body, fn.getSourceFile());
  if (!kinds || (!strictNulls && (kinds.has("null") || kinds.has("undefined")))) return undefined;
  // The checker lists null and undefined first (its own early types); literal and object types
  // in the order it happened to create them, which syntax cannot know: one of those at most.
  if (LATE_KINDS.filter((kind) => kinds.has(kind)).length > 1) return undefined;
  return KIND_WORDS.filter(([kind]) => kinds.has(kind)).map(([, words]) => words);
}

/** `new GuardrailHook(…)` of the runtime, or of a user subclass that keeps its constructor. */
function constructsGuardrail(node: NewExpression, runtime: RuntimeResolver): boolean {
  let callee: Node = node.getExpression();
  for (let hops = 0; hops < 8; hops++) {
    if (runtime.is(callee, "GuardrailHook")) return true;
    // A name the file never declares is a global: no class of it (an import's declaration is its specifier).
    if (Node.isIdentifier(callee) && !declaresName(callee, callee.compilerNode.text)) return false;
    const declaration = Node.isIdentifier(callee) ? firstDeclarationOf(callee) : callee.getSymbol()?.getDeclarations()[0];
    if (!declaration || !Node.isClassDeclaration(declaration) || declaration.getConstructors().length > 0) return false;
    const base = declaration.getExtends()?.getExpression();
    if (!base) return false;
    callee = base;
  }
  return false;
}

/** The return type of an expression with exactly one call signature (a function from elsewhere). */
function singleSignatureReturn(expression: Expression): Type | null {
  const signatures = expression.getType().getCallSignatures();
  return signatures.length === 1 ? signatures[0]!.getReturnType() : null;
}

/**
 * What the (awaited) return type can be besides a boolean or a string, in words; an empty list
 * when nothing else; null when it cannot be known (any, unknown, a type parameter).
 */
function badReturnKinds(type: Type): string[] | null {
  const kinds = new Set<string>();
  for (const part of unionParts(type)) {
    const awaited = awaitedOf(part);
    if (awaited === null) return null;
    for (const inner of unionParts(awaited)) {
      const kind = describeKind(inner);
      if (kind === null) return null;
      if (kind !== "ok") kinds.add(kind);
    }
  }
  return [...kinds];
}

function unionParts(type: Type): Type[] {
  return type.isUnion() ? type.getUnionTypes() : [type];
}

/** The value a Promise/PromiseLike resolves to, the type itself when it is not thenable, null for other thenables. */
function awaitedOf(type: Type): Type | null {
  if (type.getProperty("then") === undefined) return type;
  const name = type.getSymbol()?.getName();
  const [argument] = type.getTypeArguments();
  return (name === "Promise" || name === "PromiseLike") && argument ? argument : null;
}

/** "ok" for what the hook accepts, a description of anything else, null for types that say nothing. */
function describeKind(type: Type): string | null {
  if (type.isAny() || type.isUnknown() || type.isTypeParameter()) return null;
  if (type.isBoolean() || type.isBooleanLiteral() || type.isString() || type.isStringLiteral() || type.isTemplateLiteral() || type.isNever()) return "ok";
  if (type.isUndefined() || type.isVoid()) return "undefined";
  if (type.isNull()) return "null";
  if (type.isNumber() || type.isNumberLiteral()) return "a number";
  if (type.isArray() || type.isTuple()) return "an array";
  if (type.getCallSignatures().length > 0) return "a function";
  if (type.isObject()) return "an object";
  const flags = type.getFlags();
  if (flags & (ts.TypeFlags.BigInt | ts.TypeFlags.BigIntLiteral)) return "a bigint";
  if (flags & ts.TypeFlags.ESSymbolLike) return "a symbol";
  if (flags & ts.TypeFlags.StringMapping) return "ok";
  return null;
}

/**
 * Without strictNullChecks the checker drops `undefined` from inferred return types, so a body
 * whose end is reachable (the binder's flag) is what says a path returns nothing.
 */
function endsWithoutReturn(fn: FunctionLike): boolean {
  const body = fn.getBody();
  return body !== undefined && Node.isBlock(body) && (fn.compilerNode.flags & ts.NodeFlags.HasImplicitReturn) !== 0;
}

function strictNullChecksOf(options: ts.CompilerOptions): boolean {
  return options.strictNullChecks ?? options.strict ?? false;
}

/** Where an inline function's head ends: its `=>`, or the `)` closing its parameters. */
function headEnd(fn: FunctionLike): number {
  if (Node.isArrowFunction(fn)) return fn.getEqualsGreaterThan().getEnd();
  return fn.getFirstChildByKind(SyntaxKind.CloseParenToken)?.getEnd() ?? fn.getEnd();
}
