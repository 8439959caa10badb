import { Node } from "ts-morph";
import { optionNames } from "./facts.js";
import { streamingUseOf, wrappedMiddlewares } from "./middlewares.js";
import type { AiSdkRule } from "./rule.js";

const WHY =
  "`streamText` and `streamObject` call the model's `doStream`, which runs a middleware's `wrapStream` and never its " +
  "`wrapGenerate`: this middleware does nothing for the streamed call. Add a `wrapStream` that does the same work, or do " +
  "the work in `transformParams`, which runs for both kinds of call.";

export const wrapGenerateOnly: AiSdkRule = {
  code: "HL301",
  name: "wrap-generate-only",
  defaultSeverity: "warning",
  summary: "A language model middleware with wrapGenerate and no wrapStream never runs for the streamed calls its model makes.",
  check(context) {
    for (const { object, wrap } of wrappedMiddlewares(context.facts)) {
      const { names, open } = optionNames(object);
      const wrapGenerate = names.get("wrapGenerate");
      if (!wrapGenerate || open || names.has("wrapStream") || names.has("transformParams")) continue;
      const streaming = streamingUseOf(wrap, context.facts);
      if (!streaming) continue;
      const at = (Node.isPropertyAssignment(wrapGenerate) || Node.isMethodDeclaration(wrapGenerate) || Node.isShorthandPropertyAssignment(wrapGenerate) ? wrapGenerate.getNameNode() : wrapGenerate);
      const line = streaming.getStartLineNumber();
      context.report({
        start: at.getStart(),
        end: at.getEnd(),
        message: `Middleware has wrapGenerate but no wrapStream: the streamed call on line ${line} bypasses it`,
        explanation: WHY,
      });
    }
  },
};
