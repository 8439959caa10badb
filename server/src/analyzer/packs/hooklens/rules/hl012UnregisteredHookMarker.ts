import { Node, SyntaxKind, ts, type CallExpression, type Identifier } from "ts-morph";
import { firstDeclarationOf } from "../../../engine/bindings.js";
import { outermostWrapper, unwrapped } from "../../../engine/expressions.js";
import { FileIdentifiers } from "../../../engine/fileIdentifiers.js";
import { FileIndex } from "../../../engine/fileIndex.js";
import type { RuntimeResolver } from "../runtimeResolver.js";
import type { Rule } from "../facts.js";

/**
 * What can become of a marked function at one place it flows to: registered on a bus (or exported,
 * so another module may register it), out of sight (an unknown call, a container, a return), or
 * neither (called, read, dropped).
 */
type Fate = "registered" | "escapes" | "unused";

const WHY =
  "hook(point) only records the point on the function (a symbol property that markedPoint reads back): it " +
  "registers nothing, and nothing in the runtime looks for marked functions. Register it yourself with " +
  "bus.on(point, fn) on the Session's HookBus, or with registerHandler(name, fn) and the name listed under the " +
  "point in buildSessionBus/loadHooksForAgent — or export it so the module that owns the bus can.";

/** Longest point text quoted in the headline, so it stays within 100 characters. */
const MAX_POINT_TEXT = 32;

export const unregisteredHookMarker: Rule = {
  code: "HL012",
  name: "unregistered-hook-marker",
  defaultSeverity: "warning",
  summary: "hook(point)(fn) only tags fn with a point; a marked function that is never registered never runs.",
  check(context) {
    let flow: MarkedFlow | undefined;
    const candidates = FileIndex.of(context.sourceFile).wrapped(
      SyntaxKind.CallExpression,
      (call) => call.arguments.length > 0 && ts.isCallExpression(call.expression) && context.facts.runtime.mayDenoteImport(call.expression.expression),
    );
    for (const node of candidates) {
      // `hook(point)(fn)`: a call whose callee is itself a call, of the runtime's `hook`.
      const marker = node.getExpression();
      if (!Node.isCallExpression(marker) || node.getArguments().length === 0) continue;
      if (!context.facts.runtime.is(marker.getExpression(), "hook")) continue;
      flow ??= new MarkedFlow(new FileIdentifiers(context.sourceFile), context.facts.runtime);
      if (flow.markedFunctionFate(node) !== "unused") continue;
      const point = marker.getArguments()[0]?.getText() ?? "";
      context.report({
        start: marker.getStart(),
        end: marker.getEnd(),
        message: `hook(${point.length <= MAX_POINT_TEXT ? point : "…"}) marks a handler that nothing registers, so it never runs`,
        explanation: WHY,
      });
    }
  },
};

/** Follows a marked function through the file, one local step at a time. */
class MarkedFlow {
  readonly #identifiers: FileIdentifiers;
  readonly #runtime: RuntimeResolver;
  readonly #visited = new Set<Node>();

  constructor(identifiers: FileIdentifiers, runtime: RuntimeResolver) {
    this.#identifiers = identifiers;
    this.#runtime = runtime;
  }

  /** Where the function marked by `call` (`hook(point)(fn)`) ends up: the call's value, and fn's own name if it has one. */
  markedFunctionFate(call: CallExpression): Fate {
    this.#visited.clear();
    const fates = [this.#fateOf(call)];
    const marked = unwrapped(call.getArguments()[0]!);
    if (Node.isIdentifier(marked)) fates.push(this.#declarationFate(marked));
    else if (!Node.isArrowFunction(marked) && !Node.isFunctionExpression(marked)) fates.push("escapes");
    return combine(fates);
  }

  /** The fate of the value of `expression` at the place it stands. */
  #fateOf(expression: Node): Fate {
    if (this.#visited.has(expression)) return "unused";
    this.#visited.add(expression);
    const outer = outermostWrapper(expression);
    const parent = outer.getParentOrThrow();
    if (Node.isExpressionStatement(parent) || Node.isVoidExpression(parent) || Node.isTypeOfExpression(parent)) return "unused";
    if (Node.isTypeQuery(parent)) return "unused";
    if (Node.isCallExpression(parent)) return parent.getExpression() === outer ? "unused" : this.#argumentFate(parent, outer);
    if (Node.isPropertyAccessExpression(parent) || Node.isElementAccessExpression(parent)) {
      // Reading a property (`fn[HOOK_POINT]`, `fn.name`) is harmless; calling a method on it (`fn.bind(…)`) may hand it on.
      const access = outermostWrapper(parent);
      const accessParent = access.getParent();
      return Node.isCallExpression(accessParent) && accessParent.getExpression() === access ? "escapes" : "unused";
    }
    if (Node.isVariableDeclaration(parent) && parent.getInitializer() === outer) {
      const name = parent.getNameNode();
      if (!Node.isIdentifier(name)) return "escapes";
      return parent.getVariableStatement()?.isExported() ? "registered" : this.#usesFate(name);
    }
    if (Node.isExportAssignment(parent)) return "registered";
    if (Node.isConditionalExpression(parent) && parent.getCondition() !== outer) return this.#fateOf(parent);
    if (Node.isAwaitExpression(parent)) return this.#fateOf(parent);
    if (Node.isBinaryExpression(parent)) {
      const operator = parent.getOperatorToken().getText();
      if (["||", "&&", "??"].includes(operator) || (operator === "," && parent.getRight() === outer)) return this.#fateOf(parent);
      if (["===", "!==", "==", "!=", "instanceof", "in"].includes(operator) || (operator === "," && parent.getLeft() === outer)) return "unused";
    }
    // A return, a container, an assignment, a JSX attribute, a class field…: out of sight.
    return "escapes";
  }

  /** The fate of a marked function passed as an argument of `call`. */
  #argumentFate(call: CallExpression, argument: Node): Fate {
    const index = call.getArguments().indexOf(argument);
    const callee = call.getExpression();
    if (Node.isPropertyAccessExpression(callee) && this.#runtime.isInstanceOf(callee.getExpression(), "HookBus")) {
      if (callee.getName() === "on" && index === 1) return "registered";
      if (callee.getName() === "off" && index === 1) return "unused";
    }
    if (index === 1 && this.#runtime.is(callee, "registerHandler")) return "registered";
    if (index === 0 && this.#runtime.is(callee, "markedPoint")) return "unused";
    // Marked again: the same function, now the value of the outer call.
    if (index === 0 && Node.isCallExpression(callee) && this.#runtime.is(callee.getExpression(), "hook")) return this.#fateOf(call);
    return "escapes";
  }

  /** The fate of a named function or variable that was marked: exported, or wherever its uses take it. */
  #declarationFate(name: Identifier): Fate {
    // An import's first declaration is its specifier (from syntax where it places the name): it came from elsewhere.
    const declaration = firstDeclarationOf(name);
    if (!declaration || declaration.getSourceFile() !== name.getSourceFile()) return "escapes";
    if (Node.isFunctionDeclaration(declaration)) {
      const declared = declaration.getNameNode();
      return declaration.isExported() ? "registered" : declared ? this.#usesFate(declared) : "escapes";
    }
    if (Node.isVariableDeclaration(declaration)) {
      const declared = declaration.getNameNode();
      if (!Node.isIdentifier(declared)) return "escapes";
      return declaration.getVariableStatement()?.isExported() ? "registered" : this.#usesFate(declared);
    }
    // A parameter, an import, a class…: it came from somewhere this file does not show.
    return "escapes";
  }

  #usesFate(name: Identifier): Fate {
    const fates: Fate[] = [];
    for (const use of this.#identifiers.usesOf(name)) {
      const parent = use.getParent();
      if (Node.isExportSpecifier(parent)) fates.push("registered");
      else if (Node.isShorthandPropertyAssignment(parent)) fates.push("escapes");
      else fates.push(this.#fateOf(use));
      if (fates.at(-1) !== "unused") break;
    }
    return combine(fates);
  }
}

function combine(fates: readonly Fate[]): Fate {
  if (fates.includes("registered")) return "registered";
  return fates.includes("escapes") ? "escapes" : "unused";
}
