import { HookEventTypes } from "@hooklens/runtime";
import { Node, SyntaxKind, type ts } from "ts-morph";
import { unwrapped } from "../../../engine/expressions.js";
import type { FunctionLike } from "../../../engine/functions.js";
import { isErrorType, isNothing, returnSites, settledType, type ReturnSite } from "../../../engine/returns.js";
import { allPhaseRegistrations, type ServicePhase } from "../serviceHooks.js";
import { contextForHandler } from "../../../engine/findingsElsewhere.js";
import type { Fix } from "../../../engine/types.js";
import type { Rule, RuleContext } from "../facts.js";
import { valueKinds } from "../../../engine/valueKinds.js";

const RETURNED =
  "The registry takes whatever a handler returns as success: the hook event ends COMPLETED, with the Error only copied into its " +
  "`execution.error`, and it never asks the caller to stop.";

/** Per kind of hook: the headline's consequence, and what returning vs throwing does there. */
const CONSEQUENCE: Readonly<Record<ServicePhase | "stream", { headline: string; why: string }>> = {
  [HookEventTypes.PreEventCreate]: {
    headline: "the event is built anyway",
    why:
      `${RETURNED} createEvent goes on to build the event. A thrown error ends the hook CANCELLED, and with the exit policy on ` +
      "(`createEventExitHook: true`, or `exitHook` on the model) createEvent rejects with it instead of building the event.",
  },
  [HookEventTypes.PreInvocation]: {
    headline: "the call is not blocked",
    why: `${RETURNED} The provider call goes ahead. A thrown error ends the hook CANCELLED, which blocks the call whatever the exit policy.`,
  },
  [HookEventTypes.PostInvocation]: {
    headline: "the phase still completes",
    why:
      `${RETURNED} The call's result stands. A thrown error ends the hook ABORTED: it is logged, and with the exit policy on ` +
      "(`postInvokeEventExitHook: true`, or `exitHook` on the model) it fails a call whose provider request succeeded.",
  },
  stream: {
    headline: "the original chunk is delivered",
    why:
      "IModel.stream treats a returned Error like no result: the chunk goes out unchanged and the error is dropped, even with the " +
      "exit policy on. A thrown error ends the stream when the model's `exitHook` is on (IModel.stream then rejects with " +
      "\"Failed to stream API call: …\"); with it off the chunk is kept as well.",
  },
};

export const serviceHookReturnsError: Rule = {
  code: "HL011",
  name: "service-hook-returns-error",
  defaultSeverity: "warning",
  summary: "A service hook that returns an Error instead of throwing it does not fail its phase.",
  check(context) {
    const { phases, streams } = allPhaseRegistrations(context);
    const seen = new Set<FunctionLike>();
    for (const { phase, fn, handler } of phases) if (fn && !seen.has(fn) && seen.add(fn)) checkHandler(fn, phase, contextForHandler(context, fn, handler));
    for (const { fn, handler } of streams) if (!seen.has(fn) && seen.add(fn)) checkHandler(fn, "stream", contextForHandler(context, fn, handler));
  },
};

function checkHandler(fn: FunctionLike, kind: ServicePhase | "stream", context: RuleContext): void {
  const { headline, why } = CONSEQUENCE[kind];
  const subject = kind === "stream" ? "This stream handler" : `This ${kind} hook`;
  for (const site of returnSites(fn)) {
    if (!returnsError(site)) continue;
    context.report({
      start: site.site.getStart(),
      end: site.site.getEnd(),
      message: `${subject} returns an Error instead of throwing it: ${headline}`,
      explanation: why,
      fix: throwInstead(site),
    });
  }
}

/** Whether every value the site can return (once settled) is an Error, leaving out "nothing". */
function returnsError(site: ReturnSite): boolean {
  const value = unwrapped(site.value);
  const kinds = valueKinds(value.compilerNode as ts.Expression, value.getSourceFile());
  if (kinds) {
    const something = [...kinds].filter((kind) => kind !== "undefined" && kind !== "null");
    return something.length > 0 && something.every((kind) => kind === "error");
  }
  const type = settledType(value.getType(), value);
  if (type.isAny() || type.isUnknown()) return false;
  const parts = (type.isUnion() ? type.getUnionTypes() : [type]).filter((t) => !isNothing(t));
  return parts.length > 0 && parts.every(isErrorType);
}

/** `return new X(…)` → `throw new X(…)`; a concise `() => new X(…)` gets a block that throws it. */
function throwInstead({ site, value }: ReturnSite): Fix | undefined {
  if (!Node.isNewExpression(unwrapped(value))) return undefined;
  const title = "Throw the Error instead of returning it";
  if (Node.isReturnStatement(site)) {
    const keyword = site.getFirstChildByKindOrThrow(SyntaxKind.ReturnKeyword);
    return { title, edits: [{ start: keyword.getStart(), end: keyword.getEnd(), newText: "throw" }] };
  }
  return { title, edits: [{ start: site.getStart(), end: site.getEnd(), newText: `{ throw ${unwrapped(value).getText()}; }` }] };
}
