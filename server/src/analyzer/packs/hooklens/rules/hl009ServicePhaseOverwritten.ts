import { Node, VariableDeclarationKind, type Expression, type Identifier } from "ts-morph";
import { localDeclarationOf } from "../../../engine/bindings.js";
import { unwrapped } from "../../../engine/expressions.js";
import { importedDeclarationOf } from "../../../engine/importedDeclarations.js";
import { forEachPhaseMethodCall, forEachRegistryOptions, type PhaseRegistration } from "../serviceHooks.js";
import type { Rule, RuleContext } from "../facts.js";
import { startLineOf } from "../../../engine/lineNumbers.js";

const EXPLANATION =
  "A HookRegistry holds one handler per phase, not a chain. `preEventCreateHook`, `preInvoke` and `postInvoke` replace the " +
  'phase\'s handler (the runtime only logs an "Overwriting existing … hook" warning), and when one `hooks` object names a phase ' +
  "twice (an alias and its value, such as `pre_invoke` and `pre_invocation`) the later key wins without any warning. Only the " +
  "handler registered last ever runs. To run both, register one function that calls them in turn.";

/** A registration with what identifies its registry and where it runs in straight-line code. */
interface Placed {
  registration: PhaseRegistration;
  /** Which registry: a `const` declaration (by file and position) plus the path read from it. */
  registry: string;
  /** The statement list it runs in, and its statement there; null when it is not a statement of its own. */
  list: Node | null;
}

export const servicePhaseOverwritten: Rule = {
  code: "HL009",
  name: "service-phase-overwritten",
  defaultSeverity: "warning",
  summary: "A second handler for the same service phase on one HookRegistry silently replaces the first.",
  check(context) {
    const placed: Placed[] = [];
    forEachRegistryOptions(context, ({ construction, constructs, phases }) => {
      // Two keys of one hooks object name the same phase: the later one wins.
      reportRepeats(phases.map((registration) => ({ registration, registry: "", list: construction })), context, () => true);
      const holder = constHolding(construction);
      if (!holder) return;
      const registry = constructs === "IModel" ? `${holder.key}.hookRegistry` : holder.key;
      for (const registration of phases) placed.push({ registration, registry, list: holder.statementList });
    });
    forEachPhaseMethodCall(context, (registration, receiver) => {
      const registry = registryKey(receiver);
      if (registry) placed.push({ registration, registry, list: statementListOf(registration.site) });
    });
    placed.sort((a, b) => a.registration.site.getStart() - b.registration.site.getStart());
    // Pairs of keys were reported above; here a method call replaces a key or another call.
    reportRepeats(placed, context, (registration) => registration.form === "method");
  },
};

/** Reports each registration that follows another for the same registry and phase in the same statement list. */
function reportRepeats(placed: readonly Placed[], context: RuleContext, reportable: (registration: PhaseRegistration) => boolean): void {
  const last = new Map<string, Placed>();
  for (const current of placed) {
    const key = `${current.registry}\u0000${current.registration.phase}`;
    const previous = last.get(key);
    last.set(key, current);
    if (!previous || current.list === null || previous.list !== current.list || !reportable(current.registration)) continue;
    const { site, phase } = current.registration;
    context.report({
      start: site.getStart(),
      end: site.getEnd(),
      message: `This replaces the ${phase} hook registered on line ${startLineOf(previous.registration.site)}: a HookRegistry keeps one per phase`,
      explanation: EXPLANATION,
    });
  }
}

/**
 * For a `new HookRegistry(…)`/`new IModel(…)` that initialises a `const` (`const r = new …`):
 * the declaration's key and the statement list the declaration is in.
 */
function constHolding(construction: Node): { key: string; statementList: Node } | null {
  let outer = construction;
  while (outer.getParent() && unwrapped(outer.getParentOrThrow()) === construction) outer = outer.getParentOrThrow();
  const declaration = outer.getParent();
  if (!Node.isVariableDeclaration(declaration) || declaration.getInitializer() !== outer) return null;
  const statement = declaration.getVariableStatement();
  if (!statement || statement.getDeclarationKind() !== VariableDeclarationKind.Const) return null;
  return { key: declarationKey(declaration), statementList: statement.getParentOrThrow() };
}

/**
 * The registry a method call's receiver denotes, when it is a `const`: `registry` (the
 * declaration) or `model.hookRegistry` (the model's declaration plus the property). Null otherwise.
 */
function registryKey(receiver: Expression): string | null {
  const value = unwrapped(receiver);
  if (Node.isIdentifier(value)) {
    const declaration = constDeclarationOf(value);
    return declaration ? declarationKey(declaration) : null;
  }
  if (Node.isPropertyAccessExpression(value) && value.getName() === "hookRegistry") {
    const model = unwrapped(value.getExpression());
    const declaration = Node.isIdentifier(model) ? constDeclarationOf(model) : null;
    return declaration ? `${declarationKey(declaration)}.hookRegistry` : null;
  }
  return null;
}

function constDeclarationOf(identifier: Identifier): Node | null {
  const declaration = localDeclarationOf(identifier) ?? importedDeclarationOf(identifier) ?? aliasedValueDeclaration(identifier);
  if (!declaration || !Node.isVariableDeclaration(declaration)) return null;
  return declaration.getVariableStatement()?.getDeclarationKind() === VariableDeclarationKind.Const ? declaration : null;
}

function aliasedValueDeclaration(identifier: Node): Node | undefined {
  let symbol = identifier.getSymbol();
  if (symbol?.isAlias()) symbol = symbol.getAliasedSymbol();
  return symbol?.getValueDeclaration();
}

function declarationKey(declaration: Node): string {
  return `${declaration.getSourceFile().getFilePath()}:${declaration.getStart()}`;
}

/**
 * The statement list a `registry.preInvoke(fn)` call runs in when it is a statement of its own
 * (`registry.preInvoke(fn);` or `const h = registry.preInvoke(fn);`); null when it sits inside
 * another expression (a condition, a callback) and so may not run in line.
 */
function statementListOf(call: Node): Node | null {
  let outer = call;
  while (outer.getParent() && unwrapped(outer.getParentOrThrow()) === call) outer = outer.getParentOrThrow();
  const parent = outer.getParent();
  if (Node.isExpressionStatement(parent)) return parent.getParentOrThrow();
  if (Node.isVariableDeclaration(parent) && parent.getInitializer() === outer) return parent.getVariableStatement()?.getParentOrThrow() ?? null;
  return null;
}
