import { HookEventTypes } from "@hooklens/runtime";
import { Node, type Type, type ts } from "ts-morph";
import { unwrapped } from "../../../engine/expressions.js";
import type { FunctionLike } from "../../../engine/functions.js";
import { isErrorType, isNothing, returnSites, settledType, type ReturnSite } from "../../../engine/returns.js";
import { allPhaseRegistrations } from "../serviceHooks.js";
import { contextForHandler } from "../../../engine/findingsElsewhere.js";
import type { Rule, RuleContext } from "../facts.js";
import { valueKinds } from "../../../engine/valueKinds.js";

const EXPLANATION =
  "IModel.createEvent runs the pre_event_create hook with the event class, then builds the APICalling itself whatever the hook " +
  "returned: the value is only kept as the hook event's response in the hook log. Returning cannot replace, change or veto the " +
  "event. To stop a call here, throw: with the exit policy on (`createEventExitHook: true`, or `exitHook` on the model) " +
  "createEvent rejects with the error; with it off the event is built even then. To check a call, register a pre_invocation " +
  "hook (`registry.preInvoke`): it receives the APICalling itself, and throwing from it blocks the call.";

export const preCreateReturnIgnored: Rule = {
  code: "HL010",
  name: "pre-create-return-ignored",
  defaultSeverity: "warning",
  summary: "What a pre-event-create hook returns is ignored: the event is built anyway.",
  check(context) {
    const seen = new Set<FunctionLike>();
    for (const { phase, fn, handler } of allPhaseRegistrations(context).phases) {
      if (phase !== HookEventTypes.PreEventCreate || !fn || seen.has(fn)) continue;
      seen.add(fn);
      checkHandler(fn, contextForHandler(context, fn, handler));
    }
  },
};

function checkHandler(fn: FunctionLike, context: RuleContext): void {
  for (const site of returnSites(fn)) {
    if (!returnsIgnoredValue(site)) continue;
    context.report({
      start: site.site.getStart(),
      end: site.site.getEnd(),
      message: "This pre_event_create hook's return value is ignored: the event is built anyway",
      explanation: EXPLANATION,
    });
  }
}

/**
 * Whether the site returns something the runtime then drops: not nothing (undefined, void, null,
 * a promise of nothing), not an Error (HL011's case) and not a two-item array (the registry reads
 * that as a failure, so it is not ignored). Values of unknown type are given the benefit of the doubt.
 */
function returnsIgnoredValue(site: ReturnSite): boolean {
  const value = unwrapped(site.value);
  if (Node.isIdentifier(value) && value.getText() === "undefined") return false;
  if (Node.isArrayLiteralExpression(value) && value.getElements().length === 2) return false;
  const kinds = valueKinds(value.compilerNode as ts.Expression, value.getSourceFile());
  // An array literal may be typed as a pair by the hook's declared return type: the checker tells.
  if (kinds && !kinds.has("array")) {
    const something = [...kinds].filter((kind) => kind !== "undefined" && kind !== "null");
    return something.length > 0 && !something.every((kind) => kind === "error");
  }
  const type = settledType(value.getType(), value);
  if (type.isAny() || type.isUnknown() || isNothing(type)) return false;
  const parts = (type.isUnion() ? type.getUnionTypes() : [type]).filter((t) => !isNothing(t));
  return !parts.every((t) => isErrorType(t) || isPair(t));
}

function isPair(type: Type): boolean {
  return type.isTuple() && type.getTupleElements().length === 2;
}
