import { Node, SyntaxKind, ts, type CallExpression, type ObjectLiteralExpression } from "ts-morph";
import { constValue, unwrapped } from "../../engine/expressions.js";
import { FileIndex } from "../../engine/fileIndex.js";
import { functionOf, type FunctionLike } from "../../engine/functions.js";
import type { RuntimeResolver } from "./runtimeResolver.js";

/** The runtime functions whose first argument maps hook point values to registered handler names. */
export const DECLARATIVE_LOADERS = ["buildSessionBus", "loadHooksForAgent"];

/**
 * The hook table a call to `buildSessionBus`/`loadHooksForAgent` is given, as an object literal:
 * written inline, or a `const` (in this file or imported from another module) holding one.
 */
export function loaderTable(call: CallExpression, runtime: RuntimeResolver): ObjectLiteralExpression | null {
  // The callee first: wrapping the argument of every call asked about would leave wrappers to forget at the next edit.
  if (call.compilerNode.arguments.length === 0 || !DECLARATIVE_LOADERS.some((name) => runtime.is(call.getExpression(), name))) return null;
  const table = constValue(call.getArguments()[0]!);
  return Node.isObjectLiteralExpression(table) ? table : null;
}

/**
 * The functions in `sourceFile` that are registered on the hook point `value`, in the forms the
 * runtime offers: `bus.on(point, fn)` on a runtime HookBus, the `hook(point)(fn)` marker, and a
 * name listed under the point in `buildSessionBus`/`loadHooksForAgent` that the same file gives to
 * `registerHandler(name, fn)`. Each with the argument that names it: a handler declared in another
 * module (imported) is reported there (`contextForHandler`).
 */
export function handlersRegisteredAt(sourceFile: Node, value: string, runtime: RuntimeResolver): RegisteredHandler[] {
  const found = new Map<FunctionLike, Node>();
  const declaredNames = new Set<string>();
  const named: [string, Node][] = [];
  const add = (argument: Node | undefined) => {
    const fn = argument ? functionOf(argument) : null;
    if (fn && argument && !found.has(fn)) found.set(fn, argument);
  };
  const index = FileIndex.of(sourceFile.getSourceFile());
  const calls = index.wrapped(SyntaxKind.CallExpression, (call) => mayRegisterHandler(call, runtime));
  for (const node of Node.isSourceFile(sourceFile) ? calls : calls.filter((call) => call.getAncestors().includes(sourceFile))) {
    const callee = node.getExpression();
    // Arguments are wrapped only for the calls that register something (the others' wrappers would be forgotten at the next edit).
    const argument = (position: number): Node | undefined => node.getArguments()[position];
    const onBus = Node.isPropertyAccessExpression(callee) && callee.getName() === "on" && runtime.isInstanceOf(callee.getExpression(), "HookBus");
    if (onBus && hookPointOf(argument(0)!, runtime) === value) add(argument(1));
    else if (isMarker(callee, value, runtime)) add(argument(0));
    else if (runtime.is(callee, "registerHandler")) {
      const [first, second] = node.getArguments();
      if (first && Node.isStringLiteral(first) && second) named.push([first.getLiteralValue(), second]);
    } else {
      const table = loaderTable(node, runtime);
      if (table) for (const name of namesDeclaredAt(table, value, runtime)) declaredNames.add(name);
    }
  }
  for (const [name, handler] of named) if (declaredNames.has(name)) add(handler);
  return [...found].map(([fn, reference]) => ({ fn, reference }));
}

/** A function registered on a hook point, and the argument of the analysed file that names it. */
export interface RegisteredHandler {
  fn: FunctionLike;
  reference: Node;
}

/**
 * Syntactic pre-filter for the calls {@link handlersRegisteredAt} looks at: `x.on(…)`, `hook(…)(…)`,
 * or a callee that may name a runtime export (registerHandler, the loaders). Never too strict.
 */
function mayRegisterHandler(call: ts.CallExpression, runtime: RuntimeResolver): boolean {
  if (call.arguments.length === 0) return false;
  const callee = call.expression;
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === "on") return true;
  if (ts.isCallExpression(callee) && runtime.mayDenoteImport(callee.expression)) return true;
  return runtime.mayDenoteImport(callee);
}

/** Whether `callee` is `hook(point)` for the point `value`, i.e. the call it heads marks a function. */
function isMarker(callee: Node, value: string, runtime: RuntimeResolver): callee is CallExpression {
  if (!Node.isCallExpression(callee) || !runtime.is(callee.getExpression(), "hook")) return false;
  const [point] = callee.getArguments();
  return point !== undefined && hookPointOf(point, runtime) === value;
}

/** The hook point an argument denotes, also through a `const` declared with a wider type (`const p: HookPoint = …`). */
export function hookPointOf(argument: Node, runtime: RuntimeResolver): string | null {
  const value = runtime.hookPointValue(argument);
  if (value !== null) return value;
  const held = constValue(argument);
  return held === unwrapped(argument) ? null : runtime.hookPointValue(held);
}

/** The handler names a declarative hook map lists, as string literals, under the point `value`. */
function namesDeclaredAt(map: ObjectLiteralExpression, value: string, runtime: RuntimeResolver): string[] {
  const names: string[] = [];
  for (const property of map.getProperties()) {
    if (!Node.isPropertyAssignment(property)) continue;
    const key = property.getNameNode();
    const point = Node.isStringLiteral(key) ? key.getLiteralValue() : Node.isComputedPropertyName(key) ? runtime.hookPointValue(key.getExpression()) : null;
    const list = property.getInitializer();
    if (point !== value || !list || !Node.isArrayLiteralExpression(list)) continue;
    for (const element of list.getElements()) if (Node.isStringLiteral(element)) names.push(element.getLiteralValue());
  }
  return names;
}
