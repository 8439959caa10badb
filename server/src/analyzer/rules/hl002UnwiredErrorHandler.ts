import { Node } from "ts-morph";
import type { Rule } from "../types.js";

/** Runtime classes whose `onError(toolName, fn)` stores a handler that nothing ever calls. */
const HOLDERS = ["AgentSpec", "HooksMixin", "CodingToolkit"];

export const unwiredErrorHandler: Rule = {
  code: "HL002",
  name: "unwired-error-handler",
  defaultSeverity: "warning",
  summary: "Tool error handlers registered with onError() are stored but never called.",
  check(context) {
    context.sourceFile.forEachDescendant((node) => {
      if (!Node.isCallExpression(node)) return;
      const callee = node.getExpression();
      if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== "onError") return;
      const holder = context.runtime.runtimeClassOf(callee.getExpression(), HOLDERS);
      if (!holder) return;
      const [toolName] = node.getArguments();
      const target = toolName && Node.isStringLiteral(toolName) ? `"${toolName.getLiteralValue()}"` : "this tool";
      context.report({
        start: callee.getNameNode().getStart(),
        end: callee.getNameNode().getEnd(),
        message:
          `${holder}.onError stores this handler for ${target}, but no Tool has an error slot and the runtime never calls it: ` +
          "a failing tool will not reach it. React to failures with a handler on HookPoint.TOOL_ERROR of the session bus, " +
          "or catch the error inside the tool.",
      });
    });
  },
};
