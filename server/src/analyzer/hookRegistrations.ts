import { Node, type CallExpression, type ObjectLiteralExpression } from "ts-morph";
import { functionOf, type FunctionLike } from "./functions.js";
import type { RuntimeResolver } from "./runtimeResolver.js";

/** The runtime functions whose first argument maps hook point values to registered handler names. */
const DECLARATIVE_LOADERS = ["buildSessionBus", "loadHooksForAgent"];

/**
 * The functions in `sourceFile` that are registered on the hook point `value`, in the forms the
 * runtime offers: `bus.on(point, fn)` on a runtime HookBus, the `hook(point)(fn)` marker, and a
 * name listed under the point in `buildSessionBus`/`loadHooksForAgent` that the same file gives to
 * `registerHandler(name, fn)`. Only functions declared in this file: a finding must sit in it.
 */
export function handlersRegisteredAt(sourceFile: Node, value: string, runtime: RuntimeResolver): FunctionLike[] {
  const found = new Set<FunctionLike>();
  const declaredNames = new Set<string>();
  const named: [string, Node][] = [];
  const add = (argument: Node | undefined) => {
    const fn = argument ? functionOf(argument) : null;
    if (fn && fn.getSourceFile() === sourceFile.getSourceFile()) found.add(fn);
  };
  sourceFile.forEachDescendant((node) => {
    if (!Node.isCallExpression(node)) return;
    const callee = node.getExpression();
    const [first, second] = node.getArguments();
    if (!first) return;
    const onBus = Node.isPropertyAccessExpression(callee) && callee.getName() === "on" && runtime.isInstanceOf(callee.getExpression(), "HookBus");
    if (onBus && runtime.hookPointValue(first) === value) add(second);
    else if (isMarker(callee, value, runtime)) add(first);
    else if (runtime.is(callee, "registerHandler") && Node.isStringLiteral(first) && second) named.push([first.getLiteralValue(), second]);
    else if (Node.isObjectLiteralExpression(first) && DECLARATIVE_LOADERS.some((name) => runtime.is(callee, name))) {
      for (const name of namesDeclaredAt(first, value, runtime)) declaredNames.add(name);
    }
  });
  for (const [name, handler] of named) if (declaredNames.has(name)) add(handler);
  return [...found];
}

/** Whether `callee` is `hook(point)` for the point `value`, i.e. the call it heads marks a function. */
function isMarker(callee: Node, value: string, runtime: RuntimeResolver): callee is CallExpression {
  if (!Node.isCallExpression(callee) || !runtime.is(callee.getExpression(), "hook")) return false;
  const [point] = callee.getArguments();
  return point !== undefined && runtime.hookPointValue(point) === value;
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
