import { Node, SyntaxKind, type CallExpression, type SourceFile, type Type } from "ts-morph";
import { bindingOf, type Binding } from "../../engine/bindings.js";
import { constValue, outermostWrapper, unwrapped } from "../../engine/expressions.js";
import { FileIndex } from "../../engine/fileIndex.js";
import { functionOf } from "../../engine/functions.js";
import type { RuntimeResolver } from "./runtimeResolver.js";

/** The hook builders of AgentSpec/HooksMixin: each returns the spec, so calls chain. */
const BUILDERS = new Set(["pre", "post", "onError", "securityPre"]);

/** A tool a spec's hooks are attached to in this file, and what its function returns. */
export interface AttachedTool {
  /** The `attachHooks(…)` call that gives the tool the spec's hooks. */
  attach: CallExpression;
  /** The name the hooks are looked up under (`attachHooks`' third argument). */
  hookName: string;
  returnType: Type;
}

/**
 * The tools of this file that a spec's `post(key, fn)` applies to, with certainty: each
 * `attachHooks(tool, spec, name)` on the same spec variable whose lookup (`*`, the exact name, or
 * the `<name>_tool` alias, as the factory reads them) reaches `key`, where `tool` is a `new Tool({
 * funcCallable })` (inline or in a `const`) whose function's return type is known.
 */
export function toolsAttachedTo(post: CallExpression, key: string, runtime: RuntimeResolver): AttachedTool[] {
  const spec = specVariableOf(post);
  if (!spec) return [];
  const found: AttachedTool[] = [];
  for (const attach of attachCalls(post.getSourceFile(), runtime)) {
    const [toolArg, specArg, nameArg] = attach.getArguments();
    if (!toolArg || !specArg || !nameArg) continue;
    const specValue = unwrapped(specArg);
    if (!Node.isIdentifier(specValue) || bindingOf(specValue) !== spec) continue;
    const hookName = nameArg.getType().isStringLiteral() ? String(nameArg.getType().getLiteralValue()) : null;
    if (hookName === null || !(key === "*" || key === hookName || key === `${hookName}_tool`)) continue;
    const returnType = toolReturnType(toolArg, runtime);
    if (returnType) found.push({ attach, hookName, returnType });
  }
  return found;
}

/** The variable holding the spec a hook builder call is made on: `spec.post(…)`, or `const spec = new AgentSpec().pre(…).post(…)`. */
function specVariableOf(call: CallExpression): Binding | undefined {
  let receiver: Node = call;
  for (;;) {
    const callee = Node.isCallExpression(receiver) ? unwrapped(receiver.getExpression()) : null;
    if (!callee || !Node.isPropertyAccessExpression(callee) || !BUILDERS.has(callee.getName())) break;
    receiver = unwrapped(callee.getExpression());
  }
  if (Node.isIdentifier(receiver)) return bindingOf(receiver);
  // A chain started on `new AgentSpec()`: the spec is the variable the whole chain is stored in.
  let top: Node = call;
  for (let parent = outermostWrapper(top).getParent(); ; parent = outermostWrapper(top).getParent()) {
    const grand = parent?.getParent();
    if (!Node.isPropertyAccessExpression(parent) || !BUILDERS.has(parent.getName()) || !Node.isCallExpression(grand)) break;
    top = grand;
  }
  const holder = outermostWrapper(top).getParent();
  if (!Node.isVariableDeclaration(holder)) return undefined;
  const name = holder.getNameNode();
  return Node.isIdentifier(name) ? bindingOf(name) : undefined;
}

function attachCalls(file: SourceFile, runtime: RuntimeResolver): CallExpression[] {
  return FileIndex.of(file)
    .wrapped(SyntaxKind.CallExpression, (call) => call.arguments.length >= 3)
    .filter((call) => call.getArguments().length >= 3 && /attachHooks$/.test(call.getExpression().getText()) && runtime.is(unwrapped(call.getExpression()), "attachHooks"));
}

/** What the function of `new Tool({ funcCallable })` returns; null for an MCP tool or when it cannot be known. */
function toolReturnType(toolArg: Node, runtime: RuntimeResolver): Type | null {
  const tool = constValue(toolArg);
  if (!Node.isNewExpression(tool) || !runtime.is(unwrapped(tool.getExpression()), "Tool")) return null;
  const options = tool.getArguments()[0];
  const object = options && constValue(options);
  if (!object || !Node.isObjectLiteralExpression(object) || object.getProperty("mcpConfig")) return null;
  const property = object.getProperty("funcCallable");
  const callable = Node.isPropertyAssignment(property) ? property.getInitializer() : Node.isShorthandPropertyAssignment(property) ? property.getNameNode() : undefined;
  if (!callable) return null;
  const fn = functionOf(callable);
  if (fn) return fn.getReturnType();
  const signatures = callable.getType().getCallSignatures();
  return signatures.length === 1 ? signatures[0]!.getReturnType() : null;
}

/**
 * How a tool's (awaited) result meets the post chain, which runs only for plain objects: "never"
 * when no possible result is one, "sometimes" when only some are, null when all are or it cannot
 * be told (any, unknown, a type parameter). `others` names the kinds that skip the hooks.
 */
export function postChainReach(type: Type): { reach: "never" | "sometimes"; others: string[] } | null {
  const awaited = type.getSymbol()?.getName() === "Promise" ? (type.getTypeArguments()[0] ?? type) : type;
  const parts = (awaited.isUnion() ? awaited.getUnionTypes() : [awaited]).filter((t) => !t.isNever());
  if (parts.length === 0 || parts.some((t) => t.isAny() || t.isUnknown() || t.isTypeParameter())) return null;
  const others = [...new Set(parts.map(notPlainObject).filter((k): k is string => k !== null))];
  if (others.length === 0) return null;
  return { reach: parts.every((t) => notPlainObject(t) !== null) ? "never" : "sometimes", others };
}

/** The kind of value a type stands for when it is certainly not a plain object; null when it may be one. */
function notPlainObject(t: Type): string | null {
  if (t.isString() || t.isStringLiteral() || t.isTemplateLiteral()) return "a string";
  if (t.isNumber() || t.isNumberLiteral() || t.isBigInt() || t.isBigIntLiteral()) return "a number";
  if (t.isBoolean() || t.isBooleanLiteral()) return "a boolean";
  if (t.isUndefined() || t.isVoid() || t.isNull()) return "nothing";
  if (t.isArray() || t.isTuple() || t.isReadonlyArray?.()) return "an array";
  if (t.getCallSignatures().length > 0) return "a function";
  const declarations = t.getSymbol()?.getDeclarations() ?? [];
  if (declarations.some((d) => Node.isClassDeclaration(d))) return `a ${t.getSymbol()!.getName()} instance`;
  return null;
}
