import { Node, SyntaxKind, ts, type ObjectLiteralExpression } from "ts-morph";
import { FileIndex } from "../../../engine/fileIndex.js";
import { functionOf, isParameterUsed, type FunctionLike } from "../../../engine/functions.js";
import { contextForHandler } from "../../../engine/findingsElsewhere.js";
import { clip } from "../../../engine/headline.js";
import type { Rule, RuleContext } from "../facts.js";

/** Arguments a stream handler is really called with: (null, chunkType, chunk, params). */
const CHUNK_POSITION = 2;

export const streamHandlerArity: Rule = {
  code: "HL003",
  name: "stream-handler-arity",
  defaultSeverity: "warning",
  summary: "Stream handlers are called as (null, chunkType, chunk, params); one declared as (chunk) receives null.",
  check(context) {
    const candidates = FileIndex.of(context.sourceFile).wrapped(
      SyntaxKind.NewExpression,
      (construction) =>
        construction.arguments !== undefined &&
        construction.arguments[0] !== undefined &&
        ts.isObjectLiteralExpression(construction.arguments[0]) &&
        context.facts.runtime.mayDenoteImport(construction.expression),
    );
    for (const node of candidates) {
      const [options] = node.getArguments();
      if (!options || !Node.isObjectLiteralExpression(options)) continue;
      const constructed = node.getExpression();
      if (context.facts.runtime.is(constructed, "HookRegistry")) checkStreamHandlers(options, context);
      else if (context.facts.runtime.is(constructed, "IModel")) {
        const registry = property(options, "hookRegistry");
        if (registry && Node.isObjectLiteralExpression(registry)) checkStreamHandlers(registry, context);
      }
    }
  },
};

function checkStreamHandlers(options: ObjectLiteralExpression, context: RuleContext): void {
  const handlers = property(options, "streamHandlers");
  if (!handlers || !Node.isObjectLiteralExpression(handlers)) return;
  for (const entry of handlers.getProperties()) {
    const value = Node.isPropertyAssignment(entry) ? entry.getInitializer() : Node.isMethodDeclaration(entry) ? entry : undefined;
    const fn = value && (Node.isMethodDeclaration(value) ? value : functionOf(value));
    if (!value || !fn) continue;
    const at = contextForHandler(context, fn, value);
    if (!reachesChunk(fn)) reportTooFewParameters(fn, fn === value, at);
    else if (readsEventAsChunk(fn)) reportEventReadAsChunk(fn, at);
  }
}

/** `(chunk) => …`: the only parameters it has receive null and the chunk type. A handler with none cannot misread anything. */
function reportTooFewParameters(fn: FunctionLike, inline: boolean, context: RuleContext): void {
  const parameters = fn.getParameters();
  const first = parameters[0];
  if (!first) return;
  const javascript = /\.[cm]?jsx?$/.test(context.sourceFile.getFilePath());
  const prefix = javascript ? "_event, _chunkType, " : "_event: null, _chunkType: string, ";
  context.report({
    start: first.getStart(),
    end: parameters[parameters.length - 1]!.getEnd(),
    message: `Stream handler's "${clip(first.getName(), 24)}" receives null, not the chunk: the chunk is argument 3`,
    explanation:
      `This handler declares ${parameters.length} parameter(s), but the HookRegistry calls every stream handler as ` +
      `(null, chunkType, chunk, params), so "${first.getName()}" is always null and the chunk is never seen. ` +
      "Declare (event, chunkType, chunk, params), or type the handler as StreamHandler.",
    fix: inline
      ? { title: "Declare the (event, chunkType) parameters before the chunk", edits: [{ start: first.getStart(), end: first.getStart(), newText: prefix }] }
      : undefined,
  });
}

/** `(chunk, type, params) => chunk.text`: enough parameters, but the first one (always null) is the one read. */
function reportEventReadAsChunk(fn: FunctionLike, context: RuleContext): void {
  const first = fn.getParameters()[0]!;
  context.report({
    start: first.getStart(),
    end: first.getEnd(),
    message: `Stream handler reads "${clip(first.getName(), 24)}", which is always null: the chunk is argument 3`,
    explanation:
      "The HookRegistry calls every stream handler as (null, chunkType, chunk, params). This handler reads its first " +
      `parameter "${first.getName()}" but never its third, so it looks at null where it expects the chunk. ` +
      "Name the parameters (event, chunkType, chunk, params) and read the chunk from the third.",
  });
}

/** A handler reaches the chunk when it has a third parameter or a rest parameter that covers it. */
function reachesChunk(fn: FunctionLike): boolean {
  const parameters = fn.getParameters();
  return parameters.length > CHUNK_POSITION || parameters.some((p) => p.isRestParameter());
}

/** Whether the first parameter (always null) is read while the chunk's position is not. */
function readsEventAsChunk(fn: FunctionLike): boolean {
  const parameters = fn.getParameters();
  const first = parameters[0];
  if (!first || first.isRestParameter() || !Node.isIdentifier(first.getNameNode()) || !isParameterUsed(fn, 0)) return false;
  const chunkHolder = parameters.findIndex((p, index) => index === CHUNK_POSITION || (p.isRestParameter() && index <= CHUNK_POSITION));
  return chunkHolder >= 0 && !isParameterUsed(fn, chunkHolder);
}

function property(object: ObjectLiteralExpression, name: string): Node | undefined {
  const found = object.getProperty(name);
  if (found && Node.isPropertyAssignment(found)) return found.getInitializer();
  return undefined;
}
