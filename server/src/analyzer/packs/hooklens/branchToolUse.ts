import { Node, ts, type SourceFile } from "ts-morph";
import { bindingOf, shorthandValueBinding, type Binding } from "../../engine/bindings.js";
import { outermostWrapper, unwrapped } from "../../engine/expressions.js";
import { FileIndex } from "../../engine/fileIndex.js";
import type { RuntimeResolver } from "./runtimeResolver.js";

/** Branch members that run tools or hold them: `act()` runs calls through the tool hooks. */
const TOOL_MEMBERS = new Set(["act", "registerTools", "actionManager"]);

/** Runtime functions and classes that run tools on (or register tools for) the branch they are given. */
const TOOL_RUNNERS = new Set(["act", "actAll", "BranchTools", "equipAgent", "registerAgentTools", "registerCodingTools", "loadMcpTools"]);

/**
 * Whether the file shows any of the branches that `values` denote running or receiving tools:
 * `branch.act(…)`, `branch.registerTools(…)`, `act(branch, …)`, `new BranchTools(branch)`,
 * `createAgent(spec, { branch })`, `toolkit.bind(branch)`, on the expression itself or on a
 * variable it is stored in (plain or array destructuring). A branch with none of these never
 * calls a tool in this file, so no tool hook can miss it.
 */
export function branchesRunTools(values: readonly Node[], runtime: RuntimeResolver): boolean {
  const file = values[0]?.getSourceFile();
  if (!file) return false;
  return values.some((value) => {
    const binding = branchVariableOf(value);
    const mentions = binding && mentionsOf(binding, file);
    return mentions ? mentions.some((m) => isToolUse(m, runtime)) : isToolUse(value, runtime);
  });
}

/**
 * The variable a branch value is held in: `const b = value`, `const [a, b] = [value, …]`, the
 * identifier itself, or the variable a shorthand property (`{ branch }`) stands for.
 */
export function branchVariableOf(value: Node): Binding | undefined {
  if (Node.isShorthandPropertyAssignment(value)) return shorthandValueBinding(value);
  const inner = unwrapped(value);
  if (Node.isIdentifier(inner)) return bindingOf(inner);
  const outer = outermostWrapper(value);
  const holder = outer.getParent();
  if (Node.isVariableDeclaration(holder) && holder.getInitializer() === outer) {
    const name = holder.getNameNode();
    return Node.isIdentifier(name) ? bindingOf(name) : undefined;
  }
  if (Node.isArrayLiteralExpression(holder)) {
    const index = holder.getElements().indexOf(outer as never);
    const declaration = outermostWrapper(holder).getParent();
    if (index < 0 || !Node.isVariableDeclaration(declaration)) return undefined;
    const pattern = declaration.getNameNode();
    if (!Node.isArrayBindingPattern(pattern)) return undefined;
    const element = pattern.getElements()[index];
    if (!element || !Node.isBindingElement(element) || element.getDotDotDotToken()) return undefined;
    const name = element.getNameNode();
    return Node.isIdentifier(name) ? bindingOf(name) : undefined;
  }
  return undefined;
}

/** The names in the file that refer to `binding`; undefined when it has no name to look for. */
function mentionsOf(binding: Binding, file: SourceFile): Node[] | undefined {
  const declarationName = "kind" in binding ? ts.getNameOfDeclaration(binding as ts.Declaration) : undefined;
  const name = declarationName && ts.isIdentifier(declarationName) ? declarationName.text : "kind" in binding ? undefined : binding.getName();
  if (name === undefined) return undefined;
  return FileIndex.of(file).identifiers(name).filter((id) => {
    if (id.getText() !== name) return false;
    const parent = id.getParent();
    if (Node.isShorthandPropertyAssignment(parent)) return shorthandValueBinding(parent) === binding;
    return Node.isIdentifier(id) && bindingOf(id) === binding;
  });
}

function isToolUse(node: Node, runtime: RuntimeResolver): boolean {
  const outer = Node.isShorthandPropertyAssignment(node.getParent()) ? node.getParentOrThrow() : outermostWrapper(node);
  const parent = outer.getParent();
  if (Node.isPropertyAccessExpression(parent) && parent.getExpression() === outer) return TOOL_MEMBERS.has(parent.getName());
  if ((Node.isCallExpression(parent) || Node.isNewExpression(parent)) && parent.getArguments().includes(outer as never)) {
    const callee = unwrapped(parent.getExpression());
    const name = runtime.exportName(callee);
    if (name !== null && TOOL_RUNNERS.has(name)) return true;
    return Node.isPropertyAccessExpression(callee) && callee.getName() === "bind" && runtime.isInstanceOf(callee.getExpression(), "CodingToolkit");
  }
  // `createAgent(spec, { branch })`
  const property = Node.isShorthandPropertyAssignment(outer) ? outer : Node.isPropertyAssignment(parent) && parent.getInitializer() === outer ? parent : undefined;
  if (!property || property.getName() !== "branch") return false;
  const call = outermostWrapper(property.getParentOrThrow()).getParent();
  return Node.isCallExpression(call) && runtime.is(unwrapped(call.getExpression()), "createAgent");
}
