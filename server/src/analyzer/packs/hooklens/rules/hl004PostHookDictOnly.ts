import { Node, ts, type CallExpression, type Expression, type PropertyAccessExpression, type Type } from "ts-morph";
import { functionOf, isParameterUsed, type FunctionLike } from "../../../engine/functions.js";
import { clip } from "../../../engine/headline.js";
import { isJavaScriptPath } from "../../../engine/javaScriptFiles.js";
import { forEachRuntimeMethodCall, TOOL_HOOK_HOLDERS } from "../methodCalls.js";
import { postChainReach, toolsAttachedTo } from "../toolResults.js";
import type { Rule, RuleContext } from "../facts.js";
import { valueKinds, type ValueKind } from "../../../engine/valueKinds.js";
import { contextForHandler } from "../../../engine/findingsElsewhere.js";
import { startLineOf } from "../../../engine/lineNumbers.js";

const ARGS_POSITION = 2;

export const postHookDictOnly: Rule = {
  code: "HL004",
  name: "post-hook-dict-only",
  defaultSeverity: "warning",
  summary: "Tool post hooks only see plain-object results, always get empty args, and only an object return counts.",
  check(context) {
    forEachRuntimeMethodCall(context, "post", TOOL_HOOK_HOLDERS, (call, holder) => {
      // A CodingToolkit's hooks reach only its own coding tools, which always return objects.
      if (holder !== "CodingToolkit") checkAttachedTools(call, context);
      const handler = call.getArguments()[1];
      const fn = handler ? functionOf(handler) : null;
      if (!handler || !fn) return;
      const at = contextForHandler(context, fn, handler);
      const args = fn.getParameters()[ARGS_POSITION];
      if (args && isParameterUsed(fn, ARGS_POSITION)) {
        at.report({
          start: args.getStart(),
          end: args.getEnd(),
          message: `Post hook's "${clip(args.getName(), 16)}" is always an empty object: post hooks get (toolName, "", {}, result)`,
          explanation:
            `Post hooks are called as (toolName, "", {}, result), so "${args.getName()}" is an empty object and nothing read from it reflects the call. ` +
            "Read what you need from the result, or use a pre hook to see the arguments.",
        });
      }
      // An object literal returned as the arrow's whole body is an object the chain takes: no type needed.
      if (returnsObjectLiteral(fn)) return;
      const literal = holder === context.facts.runtime.madeAs(receiverOf(call)) ? literalReturn(fn) : undefined;
      const returned = literal === undefined ? fn.getReturnType() : undefined;
      const ignored = literal === undefined ? returned && returnsOnlyNonObjects(returned) && returned.getText(fn) : literal;
      if (ignored) {
        const body = fn.getBody() ?? fn;
        at.report({
          start: Node.isArrowFunction(fn) ? body.getStart() : fn.getStart(),
          end: Node.isArrowFunction(fn) ? body.getEnd() : (fn.getBody()?.getStart() ?? fn.getEnd()),
          message: `Post hook's ${clip(ignored, 28)} return is ignored: only a plain object replaces the result`,
          explanation:
            `This post hook returns ${ignored}, which the runtime ignores: only a plain-object return replaces the tool's result. ` +
            "Return `{ ...result, … }` to change the result, or nothing to keep it.",
        });
      }
    });
  },
};

/**
 * `(…) => ({ … })` without a declared return type: its return type (awaited, for an async arrow)
 * has an object type among its parts, so `returnsOnlyNonObjects` is false for it. JavaScript is
 * left to the checker (a JSDoc `@returns` declares the type there).
 */
function returnsObjectLiteral(fn: FunctionLike): boolean {
  const node = fn.compilerNode;
  if (!ts.isArrowFunction(node) || node.type || isJavaScriptPath(fn.getSourceFile().getFilePath())) return false;
  let body: ts.Node = node.body;
  while (ts.isParenthesizedExpression(body)) body = body.expression;
  return ts.isObjectLiteralExpression(body);
}

function receiverOf(call: CallExpression): Expression {
  return (call.getExpression() as PropertyAccessExpression).getExpression();
}

/** The types a post hook's concise literal body widens to (its declared type returns `unknown`), as the checker prints them. */
const WIDENED: ReadonlyMap<ValueKind, string> = new Map([
  ["string", "string"],
  ["number", "number"],
  ["boolean", "boolean"],
]);

/**
 * For a post hook of the runtime's own class written as a concise arrow in TypeScript: from its
 * body's syntax, the ignored type it returns (`() => "done"` returns string), or false when the
 * chain takes or does not mind what it returns (nothing, an object, a function, a bigint).
 * Undefined when only the checker can tell, including any mix of kinds.
 */
function literalReturn(fn: FunctionLike): string | false | undefined {
  const node = fn.compilerNode;
  if (!ts.isArrowFunction(node) || node.type || ts.isBlock(node.body) || isAsync(node) || isJavaScriptPath(fn.getSourceFile().getFilePath())) return undefined;
  const kinds = valueKinds(node.body, fn.getSourceFile());
  if (!kinds) return undefined;
  if ([...kinds].every((kind) => !WIDENED.has(kind) && kind !== "array")) return false;
  // One fresh literal widens; a union of literals (`c ? "a" : "b"`, `typeof x`) keeps them, which only the checker prints.
  let body: ts.Expression = node.body;
  while (ts.isParenthesizedExpression(body)) body = body.expression;
  const [only] = kinds;
  return kinds.size === 1 && only !== undefined && !ts.isConditionalExpression(body) && !ts.isTypeOfExpression(body) ? WIDENED.get(only) : undefined;
}

function isAsync(node: ts.ArrowFunction): boolean {
  return node.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.AsyncKeyword) ?? false;
}

/** True when every possible (awaited) return value is a primitive or an array: ignored by the chain. */
function returnsOnlyNonObjects(type: Type): boolean {
  const awaited = type.getSymbol()?.getName() === "Promise" ? (type.getTypeArguments()[0] ?? type) : type;
  const parts = awaited.isUnion() ? awaited.getUnionTypes() : [awaited];
  const ignored = (t: Type) =>
    t.isString() || t.isNumber() || t.isBoolean() || t.isStringLiteral() || t.isNumberLiteral() || t.isBooleanLiteral() || t.isArray() || t.isTuple();
  const silent = (t: Type) => t.isUndefined() || t.isNull() || t.isVoid();
  return parts.some(ignored) && parts.every((t) => ignored(t) || silent(t));
}

/**
 * A post hook on a spec whose hooks this file attaches (`attachHooks(tool, spec, name)`) to a tool
 * that returns something other than a plain object: for that tool the post chain never calls it,
 * or not always.
 */
function checkAttachedTools(post: CallExpression, context: RuleContext): void {
  const [keyArg] = post.getArguments();
  const key = keyArg && stringLiteralValue(keyArg);
  if (!keyArg || key === undefined) return;
  const seen = new Set<string>();
  for (const tool of toolsAttachedTo(post, key, context.facts.runtime)) {
    const reach = postChainReach(tool.returnType);
    if (!reach) continue;
    const line = startLineOf(tool.attach);
    const kinds = reach.others.join(" or ");
    const message =
      reach.reach === "never"
        ? `Post hook on "${clip(key, 20)}" never runs for the tool of line ${line}: it returns ${clip(kinds, 22)}`
        : `Post hook on "${clip(key, 20)}" is skipped when the tool of line ${line} returns ${clip(kinds, 22)}`;
    if (seen.has(message)) continue;
    seen.add(message);
    context.report({
      start: keyArg.getStart(),
      end: keyArg.getEnd(),
      message,
      explanation:
        `attachHooks(…, "${tool.hookName}") on line ${line} gives this hook to a tool whose function returns ${tool.returnType.getText(post)}. ` +
        "The post chain calls its hooks only when the tool's result is a plain object; any other result is passed on unchanged and no post hook runs. " +
        "If post hooks should see the result, return an object from the tool (for example `{ text }`).",
    });
  }
}

/** The value of a key written as a string literal (its type says the same), else of a key whose type is a string literal. */
function stringLiteralValue(key: Node): string | undefined {
  if (Node.isStringLiteral(key) || Node.isNoSubstitutionTemplateLiteral(key)) return key.getLiteralValue();
  const type = key.getType();
  return type.isStringLiteral() ? String(type.getLiteralValue()) : undefined;
}
