import { Node } from "ts-morph";
import { clip } from "../../../engine/headline.js";
import { forEachRuntimeMethodCall, TOOL_HOOK_HOLDERS } from "../methodCalls.js";
import type { Rule } from "../facts.js";

export const unwiredErrorHandler: Rule = {
  code: "HL002",
  name: "unwired-error-handler",
  defaultSeverity: "warning",
  summary: "Tool error handlers registered with onError() are stored but never called.",
  check(context) {
    forEachRuntimeMethodCall(context, "onError", TOOL_HOOK_HOLDERS, (call, holder, methodName) => {
      const [toolName] = call.getArguments();
      const target = toolName && Node.isStringLiteral(toolName) ? `"${clip(toolName.getLiteralValue(), 20)}"` : "this tool";
      context.report({
        start: methodName.getStart(),
        end: methodName.getEnd(),
        message: `${holder}.onError handler for ${target} is never called: no Tool runs error hooks`,
        explanation:
          `${holder}.onError stores the handler, but a Tool has no error slot and nothing in the runtime reads what was stored, ` +
          "so a failing tool never reaches it. React to failures with a handler on HookPoint.TOOL_ERROR of the session bus, " +
          "or catch the error inside the tool.",
      });
    });
  },
};
