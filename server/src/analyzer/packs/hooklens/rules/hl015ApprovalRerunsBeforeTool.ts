import { Node, SyntaxKind, ts, VariableDeclarationKind, type ClassDeclaration, type Expression, type NewExpression, type ObjectLiteralExpression, type Type, type VariableDeclaration } from "ts-morph";
import { firstDeclarationOf, localDeclarationOf } from "../../../engine/bindings.js";
import { mayHoldConfirmTool } from "../executorTools.js";
import { unwrapped } from "../../../engine/expressions.js";
import { FileIndex } from "../../../engine/fileIndex.js";
import { sideEffectOf } from "../../../engine/sideEffects.js";
import type { FunctionLike } from "../../../engine/functions.js";
import type { RuntimeResolver } from "../runtimeResolver.js";
import type { Rule } from "../facts.js";
import { startLineOf } from "../../../engine/lineNumbers.js";

/** Longest hook name quoted in the headline, so it stays within 100 characters. */
const MAX_NAME = 24;

export const approvalRerunsBeforeTool: Rule = {
  code: "HL015",
  name: "approval-reruns-before-tool",
  defaultSeverity: "information",
  summary: "With an approval step, an edited tool call runs every beforeTool again, so a beforeTool's side effects happen twice.",
  check(context) {
    const candidates = FileIndex.of(context.sourceFile).wrapped(
      SyntaxKind.NewExpression,
      (construction) => (construction.arguments?.length ?? 0) >= 2 && context.facts.runtime.mayDenoteImport(construction.expression),
    );
    for (const node of candidates) {
      if (node.getArguments().length < 2) continue;
      if (!context.facts.runtime.is(node.getExpression(), "Executor")) continue;
      const options = objectLiteralOf(node.getArguments()[1]!);
      const approval = options && propertyValue(options, "approval");
      if (!approval || !canEditArguments(approval)) continue;
      // The approval step (and so the second beforeTool) only runs for tools marked confirm.
      if (!mayHoldConfirmTool(node.getArguments()[0]!, context.facts.runtime)) continue;
      const hooks = propertyValue(options, "hooks");
      for (const hook of hooks ? hookElements(hooks) : []) {
        const found = beforeToolOf(hook, context.facts.runtime);
        const effect = found && sideEffectOf(found.fn);
        if (!found || !effect) continue;
        const name = found.name.length <= MAX_NAME ? found.name : "this hook";
        const line = startLineOf(effect);
        const where = effect.getSourceFile() === context.sourceFile ? `line ${line}` : `${effect.getSourceFile().getBaseName()}:${line}`;
        context.report({
          start: hook.getStart(),
          end: hook.getEnd(),
          message: `${name}.beforeTool runs again when approval edits a call, so its side effects happen twice`,
          explanation:
            `This Executor has an approval callback. When it answers a confirm tool with { arguments }, the Executor ` +
            `validates the edited call and runs every hook's beforeTool again on it, so checks see what really runs. ` +
            `To the hook that is just a second beforeTool call: \`${abbreviate(effect.getText())}\` (${where}) happens ` +
            `twice for one tool call. Keep once-per-call effects (counters, logs, bookings) out of beforeTool — ` +
            `afterTool and onToolError run once per call — or make them idempotent per inv.call.id.`,
        });
      }
    }
  },
};

/** An object literal written in place or held in a `const` (followed a few steps). */
function objectLiteralOf(node: Node): ObjectLiteralExpression | null {
  const value = constValue(node);
  return Node.isObjectLiteralExpression(value) ? value : null;
}

/** The expression a `const` holds, followed through a few names; the node itself otherwise. */
function constValue(node: Node): Node {
  let current = unwrapped(node);
  for (let hops = 0; hops < 4 && Node.isIdentifier(current); hops++) {
    const declaration = firstDeclarationOf(current);
    if (!isConstDeclaration(declaration)) break;
    const initializer = declaration.getInitializer();
    if (!initializer) break;
    current = unwrapped(initializer);
  }
  return current;
}

function isConstDeclaration(node: Node | undefined): node is VariableDeclaration {
  return Node.isVariableDeclaration(node) && node.getVariableStatement()?.getDeclarationKind() === VariableDeclarationKind.Const;
}

/** The value given to `name` in an object literal (`name: x` or shorthand `name`), or null. */
function propertyValue(object: ObjectLiteralExpression, name: string): Node | null {
  const property = object.getProperty(name);
  if (Node.isPropertyAssignment(property)) return property.getInitializer() ?? null;
  if (Node.isShorthandPropertyAssignment(property)) {
    const declaration = property.getValueSymbol()?.getDeclarations()[0];
    const initializer = isConstDeclaration(declaration) ? declaration.getInitializer() : undefined;
    return initializer ?? property.getNameNode();
  }
  return null;
}

/** Whether an approval callback can answer `{ arguments }` (or says too little to rule it out). */
function canEditArguments(approval: Node): boolean {
  const value = constValue(approval);
  if (Node.isNullLiteral(value) || (Node.isIdentifier(value) && value.getText() === "undefined")) return false;
  const literal = literalEditsArguments(value);
  if (literal !== undefined) return literal;
  const signatures = value.getType().getCallSignatures();
  if (signatures.length === 0) return value.getType().isAny();
  return signatures.some((signature) => decisionParts(signature.getReturnType()).some((part) => part.isAny() || part.isUnknown() || part.getProperty("arguments") !== undefined));
}

/**
 * Whether an approval written as `(inv) => ({ … })` answers with `arguments`, when syntax settles
 * it: the object literal names `arguments` itself, or names other members only and spreads
 * nothing (its type then has exactly the members written). Undefined when the checker must tell.
 */
function literalEditsArguments(value: Node): boolean | undefined {
  if (!Node.isArrowFunction(value) || value.getReturnTypeNode()) return undefined;
  let answer = value.compilerNode.body;
  while (ts.isParenthesizedExpression(answer)) answer = answer.expression;
  if (!ts.isObjectLiteralExpression(answer)) return undefined;
  // Members named by plain identifiers only: a quoted or computed name would need the checker to read.
  const names = answer.properties.map((member) => (ts.isSpreadAssignment(member) ? undefined : member.name && ts.isIdentifier(member.name) ? member.name.text : null));
  if (names.includes(null)) return undefined;
  return names.includes("arguments") ? true : names.includes(undefined) ? undefined : false;
}

/** The union members of an (awaited) approval decision type. */
function decisionParts(type: Type): Type[] {
  const parts: Type[] = [];
  for (const part of type.isUnion() ? type.getUnionTypes() : [type]) {
    const name = part.getSymbol()?.getName();
    const [resolved] = part.getTypeArguments();
    if ((name === "Promise" || name === "PromiseLike") && resolved) parts.push(...(resolved.isUnion() ? resolved.getUnionTypes() : [resolved]));
    else parts.push(part);
  }
  return parts;
}

/** The hooks listed in an array literal (in place or a `const`), spreads of such arrays included. */
function hookElements(hooks: Node, depth = 0): Expression[] {
  const list = constValue(hooks);
  if (!Node.isArrayLiteralExpression(list) || depth > 3) return [];
  return list.getElements().flatMap((element) => (Node.isSpreadElement(element) ? hookElements(element.getExpression(), depth + 1) : [element]));
}

/**
 * The beforeTool a listed hook runs, with a name for it: an object literal's own, or the method
 * (or function-valued field) of a user class, inherited ones included. Runtime classes (the
 * built-ins) are left out: what they do twice is documented behaviour the user cannot change.
 */
function beforeToolOf(hook: Expression, runtime: RuntimeResolver): { name: string; fn: FunctionLike } | null {
  const value = constValue(hook);
  if (Node.isObjectLiteralExpression(value)) {
    const fn = functionValue(value.getProperty("beforeTool"));
    const named = value.getProperty("name");
    const label = Node.isPropertyAssignment(named) && Node.isStringLiteral(named.getInitializer()) ? named.getInitializerOrThrow().getText().slice(1, -1) : "hook";
    return fn ? { name: label, fn } : null;
  }
  if (!Node.isNewExpression(value)) return null;
  return classBeforeTool(value, runtime);
}

/** The class a `new` callee names, through an import too; a local class syntax places without the checker. */
function classDeclarationOf(callee: Node): ClassDeclaration | undefined {
  const local = Node.isIdentifier(callee) ? localDeclarationOf(callee) : undefined;
  if (local) return Node.isClassDeclaration(local) ? local : undefined;
  const symbol = callee.getSymbol();
  return (symbol?.getAliasedSymbol() ?? symbol)?.getDeclarations().find(Node.isClassDeclaration);
}

function classBeforeTool(construct: NewExpression, runtime: RuntimeResolver): { name: string; fn: FunctionLike } | null {
  const callee = construct.getExpression();
  if (runtime.exportName(callee) !== null) return null;
  let declaration: ClassDeclaration | undefined = classDeclarationOf(callee);
  const name = declaration?.getName() ?? callee.getText();
  for (let hops = 0; declaration && hops < 8; hops++) {
    const fn = functionValue(declaration.getInstanceMember("beforeTool"));
    if (fn) return { name, fn };
    const base = declaration.getExtends()?.getExpression();
    if (!base || runtime.exportName(base) !== null) return null;
    declaration = declaration.getBaseClass();
  }
  return null;
}

/** The function a member or property stands for: a method, or a field/property holding an arrow or function expression. */
function functionValue(member: Node | undefined): FunctionLike | null {
  if (!member) return null;
  if (Node.isMethodDeclaration(member)) return member.hasBody() ? member : null;
  if (Node.isPropertyDeclaration(member) || Node.isPropertyAssignment(member)) {
    const initializer = member.getInitializer();
    const fn = initializer && unwrapped(initializer);
    return fn && (Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) ? fn : null;
  }
  return null;
}

function abbreviate(text: string): string {
  const oneLine = text.replace(/\s+/g, " ");
  return oneLine.length <= 60 ? oneLine : `${oneLine.slice(0, 57)}…`;
}
