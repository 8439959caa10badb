import { HookPoint } from "@hooklens/runtime";
import { Node, SyntaxKind, ts, type CallExpression } from "ts-morph";
import { unwrappedNode } from "../../../engine/expressions.js";
import { FileIndex } from "../../../engine/fileIndex.js";
import { objectLiteralOf } from "../serviceHooks.js";
import type { Fix } from "../../../engine/types.js";
import type { Rule, RuleContext } from "../facts.js";

/** The HookBus methods whose first argument is a point. */
const BUS_METHODS = new Set(["on", "off", "handlersFor", "emit", "blockingEmit"]);
/** The loader functions whose first argument maps point values to handler names. */
const LOADERS = ["buildSessionBus", "loadHooksForAgent"];

const MEMBERS: readonly [member: string, value: string][] = Object.entries(HookPoint);
const VALUES: ReadonlySet<string> = new Set(MEMBERS.map(([, value]) => value));
const SORTED_VALUES = [...VALUES].sort().join(", ");

const ACCEPTED =
  'The runtime accepts a HookPoint member or its exact value ("tool.pre", not "TOOL_PRE" or "tool_pre") and rejects anything ' +
  "else with an InvalidValueError before it registers, removes, looks up or emits anything.";

/** What the runtime does with an unknown point at each kind of site. */
const AT: Readonly<Record<"register" | "emit" | "marker" | "loader", (name: string) => { headline: string; why: string }>> = {
  register: (name) => ({ headline: `${name}() throws`, why: `\`${name}()\` throws it at once, so nothing after it runs.` }),
  emit: (name) => ({
    headline: `the promise ${name}() returns rejects`,
    why: `\`${name}()\` does not throw: it returns a promise rejected with it, so no handler runs and an emission nobody awaits becomes an unhandled rejection.`,
  }),
  marker: () => ({ headline: "hook() throws", why: "`hook(point)` throws it at once, before any function is marked." }),
  loader: (name) => ({
    headline: `${name}() throws`,
    why: `\`${name}()\` checks every key before it builds anything and throws "Unknown hook point '…'; valid: […]" at the first unknown one.`,
  }),
};

export const unknownHookPoint: Rule = {
  code: "HL008",
  name: "unknown-hook-point",
  defaultSeverity: "error",
  summary: "A string that is not one of the eleven HookPoint values makes the runtime throw where it expects a point.",
  check(context) {
    // Only a bus method or what may be a runtime export (hook, the loaders) can take a point here.
    const candidates = FileIndex.of(context.sourceFile).wrapped(
      SyntaxKind.CallExpression,
      (call) =>
        call.arguments.length > 0 &&
        ((ts.isPropertyAccessExpression(call.expression) && BUS_METHODS.has(call.expression.name.text)) || context.facts.runtime.mayDenoteImport(call.expression)),
    );
    for (const call of candidates) checkCall(call, context);
  },
};

function checkCall(call: CallExpression, context: RuleContext): void {
  const callee = call.getExpression();
  const argument = call.compilerNode.arguments[0];
  if (!argument) return;
  const { runtime } = context.facts;
  // Read on the compiler node: the argument is wrapped only where it is reported or read further
  // (wrappers of every candidate's arguments would be forgotten again at the next edit).
  const literal = literalArgument(argument);
  const at = (literalNode: ts.StringLiteralLike) => FileIndex.of(context.sourceFile).wrap(literalNode);
  if (Node.isPropertyAccessExpression(callee) && BUS_METHODS.has(callee.getName())) {
    // Syntactic filter first: only a literal point sends the receiver to the type checker.
    if (literal === null || VALUES.has(literal.text) || !runtime.runtimeClassOf(callee.getExpression(), ["HookBus"])) return;
    const name = callee.getName();
    report(at(literal), literal.text, AT[name === "emit" || name === "blockingEmit" ? "emit" : "register"](`bus.${name}`), context);
  } else if (Node.isIdentifier(callee) || Node.isPropertyAccessExpression(callee)) {
    if (literal !== null && !VALUES.has(literal.text) && runtime.is(callee, "hook")) report(at(literal), literal.text, AT.marker("hook"), context);
    else if (literal === null) {
      const loader = LOADERS.find((name) => runtime.is(callee, name));
      const map = loader ? objectLiteralOf(call.getArguments()[0]!) : null;
      if (loader && map) checkKeys(map.getProperties(), loader, context);
    }
  }
}

/** The keys of a loader's hook map: plain names, quoted strings and computed string literals. */
function checkKeys(properties: readonly Node[], loader: string, context: RuleContext): void {
  for (const property of properties) {
    if (!Node.isPropertyAssignment(property) && !Node.isShorthandPropertyAssignment(property)) continue;
    const key = property.getNameNode();
    if (Node.isIdentifier(key)) {
      if (!VALUES.has(key.getText())) report(key, key.getText(), AT.loader(loader), context);
      continue;
    }
    const literal = literalArgument((Node.isComputedPropertyName(key) ? key.getExpression() : key).compilerNode as ts.Expression);
    if (literal && !VALUES.has(literal.text)) report(FileIndex.of(context.sourceFile).wrap(literal), literal.text, AT.loader(loader), context);
  }
}

/** The string literal an argument or key is (through `as HookPoint`, parentheses, …), on the compiler node. */
function literalArgument(argument: ts.Expression): ts.StringLiteralLike | null {
  const value = unwrappedNode(argument);
  return ts.isStringLiteral(value) || ts.isNoSubstitutionTemplateLiteral(value) ? value : null;
}

function report(node: Node, value: string, at: { headline: string; why: string }, context: RuleContext): void {
  if (isExpectedToFail(node)) return;
  const nearest = nearestPoint(value);
  const shown = value.length > 30 ? `${value.slice(0, 29)}…` : value;
  let message = `Unknown hook point "${shown}": ${at.headline}`;
  if (nearest && message.length + nearest.value.length + 19 <= 100) message += ` (did you mean "${nearest.value}"?)`;
  const suggestion = nearest ? ` The nearest valid point is "${nearest.value}" (HookPoint.${nearest.member}).` : "";
  context.report({
    start: node.getStart(),
    end: node.getEnd(),
    message,
    explanation: `${ACCEPTED} ${at.why}${suggestion} Valid values: ${SORTED_VALUES}.`,
    fix: nearest ? replaceWith(node, nearest.value) : undefined,
  });
}

/** `"TOOL_PRE"` → `"tool.pre"`, keeping the literal's quotes (point values need no escaping); a plain key becomes a quoted one. */
function replaceWith(node: Node, value: string): Fix {
  const quote = Node.isIdentifier(node) ? '"' : node.getText()[0]!;
  return { title: `Use "${value}"`, edits: [{ start: node.getStart(), end: node.getEnd(), newText: `${quote}${value}${quote}` }] };
}

/**
 * The valid point closest to `text`, comparing it with each value and with each member name (so
 * `"TOOL_PRE"` and `"tool_pre"` find `"tool.pre"`). Only a single clear winner counts: at most one
 * edit per four characters, and every other point at least two edits further.
 */
export function nearestPoint(text: string): { member: string; value: string } | null {
  const scored = MEMBERS.map(([member, value]) => ({
    member,
    value,
    distance: Math.min(editDistance(text.toLowerCase(), value), editDistance(text.toUpperCase(), member)),
  })).sort((a, b) => a.distance - b.distance);
  const [best, second] = scored;
  if (!best || (second && second.distance - best.distance < 2)) return null;
  return best.distance <= Math.max(1, Math.floor(text.length / 4)) ? { member: best.member, value: best.value } : null;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Assertions that expect their argument (a function or a promise) to throw or reject. */
const EXPECTS_FAILURE = /^(?:assert\.)?(?:throws|rejects)$|^expect$/;

/**
 * Whether the point sits in code handed to an assertion that it fails (`assert.throws(() => …)`,
 * `assert.rejects(bus.emit(…))`, `expect(() => …)`): a test of the runtime's own check, not a mistake.
 */
function isExpectedToFail(node: Node): boolean {
  for (let current = node; !Node.isSourceFile(current); current = current.getParentOrThrow()) {
    const parent = current.getParentOrThrow();
    if (Node.isCallExpression(parent) && parent.getArguments().includes(current) && EXPECTS_FAILURE.test(parent.getExpression().getText())) return true;
  }
  return false;
}
