import { Node, type ObjectLiteralExpression } from "ts-morph";
import { functionOf, type FunctionLike } from "../functions.js";
import type { Rule, RuleContext } from "../types.js";

/** Arguments a stream handler is really called with: (null, chunkType, chunk, params). */
const CHUNK_POSITION = 2;

export const streamHandlerArity: Rule = {
  code: "HL003",
  name: "stream-handler-arity",
  defaultSeverity: "warning",
  summary: "Stream handlers are called as (null, chunkType, chunk, params); one declared as (chunk) receives null.",
  check(context) {
    context.sourceFile.forEachDescendant((node) => {
      if (!Node.isNewExpression(node)) return;
      const [options] = node.getArguments();
      if (!options || !Node.isObjectLiteralExpression(options)) return;
      const constructed = node.getExpression();
      if (context.runtime.is(constructed, "HookRegistry")) checkStreamHandlers(options, context);
      else if (context.runtime.is(constructed, "IModel")) {
        const registry = property(options, "hookRegistry");
        if (registry && Node.isObjectLiteralExpression(registry)) checkStreamHandlers(registry, context);
      }
    });
  },
};

function checkStreamHandlers(options: ObjectLiteralExpression, context: RuleContext): void {
  const handlers = property(options, "streamHandlers");
  if (!handlers || !Node.isObjectLiteralExpression(handlers)) return;
  for (const entry of handlers.getProperties()) {
    const value = Node.isPropertyAssignment(entry) ? entry.getInitializer() : Node.isMethodDeclaration(entry) ? entry : undefined;
    const fn = value && (Node.isMethodDeclaration(value) ? value : functionOf(value));
    if (!value || !fn || reachesChunk(fn)) continue;
    const parameters = fn.getParameters();
    const first = parameters[0];
    const reportOn = first ?? value;
    const javascript = /\.[cm]?jsx?$/.test(context.sourceFile.getFilePath());
    const prefix = javascript ? "_event, _chunkType, " : "_event: null, _chunkType: string, ";
    context.report({
      start: reportOn.getStart(),
      end: parameters.length > 0 ? parameters[parameters.length - 1]!.getEnd() : reportOn.getEnd(),
      message:
        `This stream handler declares ${parameters.length} parameter(s), but the registry calls it as (null, chunkType, chunk, params): ` +
        (first ? `"${first.getName()}" receives null, not the chunk.` : "it never sees the chunk.") +
        " Declare (event, chunkType, chunk, params), or use the StreamHandler type.",
      fix:
        first && fn === value
          ? { title: "Declare the (event, chunkType) parameters before the chunk", edits: [{ start: first.getStart(), end: first.getStart(), newText: prefix }] }
          : undefined,
    });
  }
}

/** A handler reaches the chunk when it has a third parameter or a rest parameter that covers it. */
function reachesChunk(fn: FunctionLike): boolean {
  const parameters = fn.getParameters();
  return parameters.length > CHUNK_POSITION || parameters.some((p) => p.isRestParameter());
}

function property(object: ObjectLiteralExpression, name: string): Node | undefined {
  const found = object.getProperty(name);
  if (found && Node.isPropertyAssignment(found)) return found.getInitializer();
  return undefined;
}
