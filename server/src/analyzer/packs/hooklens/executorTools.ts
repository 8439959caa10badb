import { Node, SyntaxKind, VariableDeclarationKind, type CallExpression, type PropertyAccessExpression } from "ts-morph";
import { firstDeclarationOf } from "../../engine/bindings.js";
import { unwrapped } from "../../engine/expressions.js";
import { FileIdentifiers } from "../../engine/fileIdentifiers.js";
import type { RuntimeResolver } from "./runtimeResolver.js";

/**
 * Whether the tool backend given to an Executor may hold a tool marked `confirm` — the only tools
 * its approval step runs for. False only when the file shows every registration: a runtime
 * `BranchTools` built in place (or in a `const` used for nothing but `.register(tool, meta)`
 * statements) whose every `meta` is an object literal without a true `confirm`. Anything else
 * (a parameter, another backend, a backend handed elsewhere) may hold one.
 */
export function mayHoldConfirmTool(tools: Node, runtime: RuntimeResolver): boolean {
  const argument = unwrapped(tools);
  let backend = argument;
  if (Node.isIdentifier(argument)) {
    const declaration = firstDeclarationOf(argument);
    if (!Node.isVariableDeclaration(declaration) || declaration.getVariableStatement()?.getDeclarationKind() !== VariableDeclarationKind.Const) return true;
    const name = declaration.getNameNode();
    const initializer = declaration.getInitializer();
    if (!Node.isIdentifier(name) || !initializer) return true;
    for (const use of new FileIdentifiers(tools.getSourceFile()).usesOf(name)) {
      if (use !== argument && !isConfirmFreeRegistrationStatement(use)) return true;
    }
    backend = unwrapped(initializer);
  }
  // `new BranchTools(branch).register(a).register(b, meta)`: each link's meta, then the construction.
  for (let callee = registerCallee(backend); callee; callee = registerCallee(backend)) {
    if (!isConfirmFreeMeta(backend as CallExpression)) return true;
    backend = unwrapped(callee.getExpression());
  }
  return !(Node.isNewExpression(backend) && runtime.is(backend.getExpression(), "BranchTools"));
}

/** `name.register(…)` (chained `.register(…)` allowed) as a statement of its own, every meta confirm-free. */
function isConfirmFreeRegistrationStatement(use: Node): boolean {
  let current: Node = use;
  for (;;) {
    const access = current.getParent();
    const call = access?.getParent();
    if (!Node.isPropertyAccessExpression(access) || access.getExpression() !== current || !Node.isCallExpression(call) || !isRegisterCall(call)) break;
    if (!isConfirmFreeMeta(call)) return false;
    current = call;
  }
  return current !== use && Node.isExpressionStatement(current.getParent());
}

function isRegisterCall(call: CallExpression): boolean {
  return registerCallee(call) !== null;
}

/** The `x.register` of a `x.register(…)` call; null for anything else. */
function registerCallee(node: Node): PropertyAccessExpression | null {
  if (!Node.isCallExpression(node)) return null;
  const callee = node.getExpression();
  return Node.isPropertyAccessExpression(callee) && callee.getName() === "register" ? callee : null;
}

/** A `.register(tool)` or `.register(tool, { … })` whose meta has no `confirm`, or `confirm: false`. */
function isConfirmFreeMeta(call: CallExpression): boolean {
  const meta = call.getArguments()[1];
  if (meta === undefined) return true;
  const literal = unwrapped(meta);
  if (!Node.isObjectLiteralExpression(literal) || literal.getProperties().some(Node.isSpreadAssignment)) return false;
  const confirm = literal.getProperty("confirm");
  if (confirm === undefined) return true;
  return Node.isPropertyAssignment(confirm) && confirm.getInitializer()?.getKind() === SyntaxKind.FalseKeyword;
}
