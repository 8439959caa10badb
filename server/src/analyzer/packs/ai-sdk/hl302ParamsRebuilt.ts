import { FileIndex } from "../../engine/fileIndex.js";
import { Node, SyntaxKind, type CallExpression, type ObjectLiteralExpression } from "ts-morph";
import { optionNames, propertyValue, unwrap } from "./facts.js";
import { wrappedMiddlewares } from "./middlewares.js";
import type { AiSdkRule, AiSdkRuleContext } from "./rule.js";

const WHY =
  "`doGenerate()` and `doStream()` take no arguments: they call the model with the params `transformParams` returned " +
  "(the `params` this function was given). A copy of them changed here never reaches the model. Make the change in the " +
  "middleware's `transformParams` (`transformParams: async ({ params }) => ({ ...params, temperature: 0 })`), or call " +
  "`model.doGenerate(newParams)` yourself.";

const WRAPS = ["wrapGenerate", "wrapStream"] as const;
const MIDDLEWARE_TYPE = /^LanguageModel(V\d+)?Middleware$/;

export const paramsRebuilt: AiSdkRule = {
  code: "HL302",
  name: "params-rebuilt-in-wrap",
  defaultSeverity: "warning",
  summary: "Params changed inside wrapGenerate/wrapStream and then doGenerate()/doStream() called: the change is ignored.",
  check(context) {
    for (const object of middlewareObjects(context)) {
      const { names } = optionNames(object);
      for (const wrap of WRAPS) {
        const fn = propertyValue(names.get(wrap));
        const body = fn && unwrap(fn);
        if (body && (Node.isArrowFunction(body) || Node.isFunctionExpression(body) || Node.isMethodDeclaration(body))) checkWrap(body, context);
      }
    }
  },
};

/** Middleware objects of this file: handed to wrapLanguageModel, or typed as the SDK's middleware. */
function middlewareObjects(context: AiSdkRuleContext): Set<ObjectLiteralExpression> {
  const objects = new Set(wrappedMiddlewares(context.facts).map((m) => m.object));
  for (const object of FileIndex.of(context.sourceFile).wrapped(SyntaxKind.ObjectLiteralExpression)) {
    if (objects.has(object) || !object.getProperties().some((p) => Node.isPropertyNamed(p) && (WRAPS as readonly string[]).includes(p.getName()))) continue;
    const typeName = object.getContextualType()?.getAliasSymbol()?.getName() ?? object.getContextualType()?.getSymbol()?.getName();
    if (typeName && MIDDLEWARE_TYPE.test(typeName)) objects.add(object);
  }
  return objects;
}

type WrapFunction = Parameters<typeof Node.isArrowFunction>[0] & { getParameters(): Node[] };

function checkWrap(fn: Node, context: AiSdkRuleContext): void {
  const parameter = (fn as unknown as WrapFunction).getParameters()[0];
  const nameNode = parameter && Node.isParameterDeclaration(parameter) ? parameter.getNameNode() : undefined;
  if (!nameNode) return;
  const bound = new Map<string, Node>();
  let options: Node | null = null;
  if (Node.isObjectBindingPattern(nameNode)) {
    for (const element of nameNode.getElements()) {
      const key = element.getPropertyNameNode()?.getText() ?? element.getName();
      if (key === "params" || key === "doGenerate" || key === "doStream") bound.set(key, element);
    }
  } else if (Node.isIdentifier(nameNode)) {
    options = parameter!;
  }
  const refersTo = (node: Node, key: string): boolean => {
    const target = unwrap(node);
    if (Node.isIdentifier(target)) {
      const declaration = target.getSymbol()?.getValueDeclaration() ?? target.getSymbol()?.getDeclarations()[0];
      return declaration !== undefined && declaration === bound.get(key);
    }
    if (options && Node.isPropertyAccessExpression(target) && target.getName() === key) {
      const base = unwrap(target.getExpression());
      return Node.isIdentifier(base) && base.getSymbol()?.getValueDeclaration() === options;
    }
    return false;
  };
  const doCalls: CallExpression[] = FileIndex.of(fn.getSourceFile()).wrapped(SyntaxKind.CallExpression, undefined, fn).filter((call) => refersTo(call.getExpression(), "doGenerate") || refersTo(call.getExpression(), "doStream"));
  for (const call of doCalls) {
    if (call.getArguments().length === 0) continue;
    const name = call.getExpression().getText();
    context.report({ start: call.getStart(), end: call.getEnd(), message: `${name}() takes no arguments: the params given to it are ignored`, explanation: WHY });
  }
  if (!doCalls.some((call) => call.getArguments().length === 0)) return;
  for (const object of FileIndex.of(fn.getSourceFile()).wrapped(SyntaxKind.ObjectLiteralExpression, undefined, fn)) {
    const spreadsParams = object.getProperties().some((p) => Node.isSpreadAssignment(p) && refersTo(p.getExpression(), "params"));
    if (!spreadsParams || object.getProperties().length < 2) continue;
    const holder = outerDeclaration(object);
    if (!holder || isHandedOn(holder, fn)) continue;
    context.report({ start: object.getStart(), end: object.getEnd(), message: "Params rebuilt here never reach the model: doGenerate()/doStream() use the original params", explanation: WHY });
  }
}

/** The variable a rebuilt-params literal initialises (`const p = { ...params, … }`), else undefined. */
function outerDeclaration(object: Node): Node | undefined {
  const parent = object.getParent();
  return parent && Node.isVariableDeclaration(parent) && parent.getInitializer() === object ? parent : undefined;
}

/** Whether the variable is used as anything but a property read: a call argument, a return, an assignment, a spread. */
function isHandedOn(declaration: Node, fn: Node): boolean {
  if (!Node.isVariableDeclaration(declaration)) return true;
  const nameNode = declaration.getNameNode();
  if (!Node.isIdentifier(nameNode)) return true;
  const symbol = nameNode.getSymbol();
  for (const use of FileIndex.of(fn.getSourceFile()).wrapped(SyntaxKind.Identifier, undefined, fn)) {
    if (use === nameNode || use.getText() !== nameNode.getText() || use.getSymbol() !== symbol) continue;
    const parent = use.getParent();
    if (parent && Node.isPropertyAccessExpression(parent) && parent.getExpression() === use) continue;
    return true;
  }
  return false;
}
