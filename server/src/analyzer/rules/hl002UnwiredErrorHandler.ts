import { Node } from "ts-morph";
import { forEachRuntimeMethodCall, TOOL_HOOK_HOLDERS } from "../methodCalls.js";
import type { Rule } from "../types.js";

export const unwiredErrorHandler: Rule = {
  code: "HL002",
  name: "unwired-error-handler",
  defaultSeverity: "warning",
  summary: "Tool error handlers registered with onError() are stored but never called.",
  check(context) {
    forEachRuntimeMethodCall(context, "onError", TOOL_HOOK_HOLDERS, (call, holder, methodName) => {
      const [toolName] = call.getArguments();
      const target = toolName && Node.isStringLiteral(toolName) ? `"${toolName.getLiteralValue()}"` : "this tool";
      context.report({
        start: methodName.getStart(),
        end: methodName.getEnd(),
        message:
          `${holder}.onError stores this handler for ${target}, but no Tool has an error slot and the runtime never calls it: ` +
          "a failing tool will not reach it. React to failures with a handler on HookPoint.TOOL_ERROR of the session bus, " +
          "or catch the error inside the tool.",
      });
    });
  },
};
