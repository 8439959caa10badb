import { HookEventTypes } from "@hooklens/runtime";
import {
  Node,
  SyntaxKind,
  ts,
  VariableDeclarationKind,
  type Expression,
  type ObjectLiteralExpression,
  type ShorthandPropertyAssignment,
  type VariableDeclaration,
} from "ts-morph";
import { localDeclarationOf } from "../../engine/bindings.js";
import { unwrapped } from "../../engine/expressions.js";
import { FileIndex } from "../../engine/fileIndex.js";
import { functionOf, type FunctionLike } from "../../engine/functions.js";
import { importedDeclarationOf } from "../../engine/importedDeclarations.js";
import type { RuleContext } from "./facts.js";

/** A service hook phase, by its value (`"pre_invocation"`, …). */
export type ServicePhase = `${HookEventTypes}`;

/** Every key a `hooks` object may use, mapped to its phase (the aliases the registry accepts, and the values). */
const PHASE_BY_KEY: Readonly<Record<string, ServicePhase>> = {
  pre_event_create: HookEventTypes.PreEventCreate,
  pre_event_create_hook: HookEventTypes.PreEventCreate,
  pre_invoke: HookEventTypes.PreInvocation,
  pre_invocation: HookEventTypes.PreInvocation,
  post_invoke: HookEventTypes.PostInvocation,
  post_invocation: HookEventTypes.PostInvocation,
};

/** The registry methods that set a phase's handler. */
export const PHASE_BY_METHOD: Readonly<Record<string, ServicePhase>> = {
  preEventCreateHook: HookEventTypes.PreEventCreate,
  preInvoke: HookEventTypes.PreInvocation,
  postInvoke: HookEventTypes.PostInvocation,
};

const PHASE_BY_MEMBER: ReadonlyMap<string, ServicePhase> = new Map(Object.entries(HookEventTypes));

/** One handler given to a runtime HookRegistry for a phase. */
export interface PhaseRegistration {
  phase: ServicePhase;
  /** How it was registered: a key of a `hooks` object, or a `preInvoke(…)`-style call. */
  form: "key" | "method";
  /** The property of the `hooks` object, or the method call. */
  site: Node;
  /** The handler as written (the property's value, the call's argument). */
  handler: Node;
  /** Its function, when it is written inline or declared where syntax or the checker can find it (this file or a module it imports). */
  fn: FunctionLike | null;
}

/** One handler in a runtime HookRegistry's `streamHandlers` object. */
export interface StreamRegistration {
  site: Node;
  /** The handler as written (the property's value). */
  handler: Node;
  fn: FunctionLike;
}

/** What the registry options of one `new HookRegistry(…)`/`new IModel({ hookRegistry: … })` register. */
export interface RegistryOptions {
  /** The `new` expression. */
  construction: Node;
  /** What it constructs: a registry, or a model that builds its registry from the options. */
  constructs: "HookRegistry" | "IModel";
  phases: PhaseRegistration[];
  streams: StreamRegistration[];
}

/**
 * Calls `visit` for each construction of a runtime HookRegistry from an options object written in
 * this file: `new HookRegistry({ hooks, streamHandlers })`, and `new IModel({ hookRegistry: {…} })`,
 * which builds one from the object. The objects may be literals or `const`s initialised with one.
 */
export function forEachRegistryOptions(context: RuleContext, visit: (options: RegistryOptions) => void): void {
  const candidates = FileIndex.of(context.sourceFile).wrapped(SyntaxKind.NewExpression, (construction) => {
    const argument = construction.arguments?.[0];
    return argument !== undefined && (ts.isObjectLiteralExpression(argument) || ts.isIdentifier(argument)) && context.facts.runtime.mayDenoteImport(construction.expression);
  });
  for (const node of candidates) {
    const callee = node.getExpression();
    const [argument] = node.getArguments();
    if (!argument || !(Node.isObjectLiteralExpression(argument) || Node.isIdentifier(argument))) continue;
    const literal = objectLiteralOf(argument);
    if (!literal) continue;
    if (context.facts.runtime.is(callee, "HookRegistry")) visit({ construction: node, constructs: "HookRegistry", ...registrationsIn(literal, context) });
    else if (context.facts.runtime.is(callee, "IModel")) {
      const registry = propertyValue(literal, "hookRegistry");
      const init = registry ? objectLiteralOf(registry) : null;
      if (init) visit({ construction: node, constructs: "IModel", ...registrationsIn(init, context) });
    }
  }
}

/** Calls `visit` for each `registry.preEventCreateHook/preInvoke/postInvoke(fn)` on a runtime HookRegistry. */
export function forEachPhaseMethodCall(context: RuleContext, visit: (registration: PhaseRegistration, receiver: Expression) => void): void {
  // The same lookup as below on the unescaped name, so the pre-filter is never stricter.
  const candidates = FileIndex.of(context.sourceFile).wrapped(
    SyntaxKind.CallExpression,
    (call) => call.arguments.length > 0 && ts.isPropertyAccessExpression(call.expression) && Boolean(PHASE_BY_METHOD[call.expression.name.text]),
  );
  for (const node of candidates) {
    const callee = node.getExpression();
    if (!Node.isPropertyAccessExpression(callee)) continue;
    const phase = PHASE_BY_METHOD[callee.getName()];
    const [handler] = node.getArguments();
    if (!phase || !handler) continue;
    const receiver = callee.getExpression();
    if (!context.facts.runtime.runtimeClassOf(receiver, ["HookRegistry"])) continue;
    visit({ phase, form: "method", site: node, handler, fn: functionOf(handler) }, receiver);
  }
}

/** Every phase handler and stream handler registered in this file, in every form. */
export function allPhaseRegistrations(context: RuleContext): { phases: PhaseRegistration[]; streams: StreamRegistration[] } {
  const phases: PhaseRegistration[] = [];
  const streams: StreamRegistration[] = [];
  forEachRegistryOptions(context, (options) => {
    phases.push(...options.phases);
    streams.push(...options.streams);
  });
  forEachPhaseMethodCall(context, (registration) => phases.push(registration));
  return { phases, streams };
}

function registrationsIn(init: ObjectLiteralExpression, context: RuleContext): Pick<RegistryOptions, "phases" | "streams"> {
  const phases: PhaseRegistration[] = [];
  const streams: StreamRegistration[] = [];
  const hooks = propertyValue(init, "hooks");
  const hooksObject = hooks && objectLiteralOf(hooks);
  for (const property of hooksObject?.getProperties() ?? []) {
    const entry = entryOf(property);
    const phase = entry && phaseOfKey(entry.key, context);
    if (entry && phase) phases.push({ phase, form: "key", site: property, handler: entry.value, fn: entry.fn });
  }
  const streamHandlers = propertyValue(init, "streamHandlers");
  const streamObject = streamHandlers && objectLiteralOf(streamHandlers);
  for (const property of streamObject?.getProperties() ?? []) {
    const entry = entryOf(property);
    if (entry?.fn) streams.push({ site: property, handler: entry.value, fn: entry.fn });
  }
  return { phases, streams };
}

/** A property of an object literal as key, value and (when known) function. */
function entryOf(property: Node): { key: Node; value: Node; fn: FunctionLike | null } | null {
  if (Node.isPropertyAssignment(property)) {
    const value = property.getInitializer();
    return value ? { key: property.getNameNode(), value, fn: functionOf(value) } : null;
  }
  if (Node.isMethodDeclaration(property)) return { key: property.getNameNode(), value: property, fn: property };
  if (Node.isShorthandPropertyAssignment(property)) return { key: property.getNameNode(), value: property, fn: functionOfShorthand(property) };
  return null;
}

/** The phase a `hooks` key names: an alias or value (plain, quoted) or a computed `HookEventTypes` member. */
function phaseOfKey(key: Node, context: RuleContext): ServicePhase | null {
  if (Node.isIdentifier(key) || Node.isStringLiteral(key)) return PHASE_BY_KEY[Node.isIdentifier(key) ? key.getText() : key.getLiteralValue()] ?? null;
  if (!Node.isComputedPropertyName(key)) return null;
  const expression = unwrapped(key.getExpression());
  if (Node.isStringLiteral(expression) || Node.isNoSubstitutionTemplateLiteral(expression)) return PHASE_BY_KEY[expression.getLiteralValue()] ?? null;
  if (Node.isPropertyAccessExpression(expression) && context.facts.runtime.is(expression.getExpression(), "HookEventTypes")) {
    return PHASE_BY_MEMBER.get(expression.getName()) ?? null;
  }
  return null;
}

/** The value of `name` in an object literal: a `name: value` initializer, or the `{ name }` shorthand itself. */
export function propertyValue(object: ObjectLiteralExpression, name: string): Node | undefined {
  const property = object.getProperty(name);
  if (property && Node.isPropertyAssignment(property)) return property.getInitializer();
  if (property && Node.isShorthandPropertyAssignment(property)) return property;
  return undefined;
}

/** An object literal written here or held by a `const` initialised with one (one step, through `as`/`satisfies`). */
export function objectLiteralOf(node: Node): ObjectLiteralExpression | null {
  const value = unwrapped(node);
  if (Node.isObjectLiteralExpression(value)) return value;
  const declaration = variableOf(value);
  const initializer = declaration?.getVariableStatement()?.getDeclarationKind() === VariableDeclarationKind.Const ? declaration.getInitializer() : undefined;
  const inner = initializer && unwrapped(initializer);
  return inner && Node.isObjectLiteralExpression(inner) ? inner : null;
}

/** The variable an identifier or a `{ name }` shorthand refers to (through imports), if it is one. */
function variableOf(node: Node): VariableDeclaration | null {
  // A local, or an import syntax follows to its one declaration (then also the symbol's value declaration).
  const local = Node.isIdentifier(node) ? (localDeclarationOf(node) ?? importedDeclarationOf(node)) : undefined;
  if (local) return Node.isVariableDeclaration(local) ? local : null;
  let symbol = Node.isShorthandPropertyAssignment(node) ? node.getValueSymbol() : Node.isIdentifier(node) ? node.getSymbol() : undefined;
  if (symbol?.isAlias()) symbol = symbol.getAliasedSymbol();
  const declaration = symbol?.getValueDeclaration();
  return declaration && Node.isVariableDeclaration(declaration) ? declaration : null;
}

/** The function a `{ name }` shorthand refers to: a function declaration or a variable initialised with one. */
function functionOfShorthand(property: ShorthandPropertyAssignment): FunctionLike | null {
  const declaration = property.getValueSymbol()?.getValueDeclaration();
  if (declaration && Node.isFunctionDeclaration(declaration)) return declaration;
  const initializer = declaration && Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : undefined;
  return initializer ? functionOf(initializer) : null;
}
