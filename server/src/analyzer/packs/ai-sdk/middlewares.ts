import { Node, type CallExpression, type ObjectLiteralExpression } from "ts-morph";
import { objectLiteralOf, optionNames, propertyValue, unwrap, valueDeclarationOf, type AiSdkFacts } from "./facts.js";

/** The SDK's streaming calls: a model they are given runs through `doStream`, and a middleware's `wrapStream`. */
export const STREAMING_CALLS = ["streamText", "streamObject"] as const;

/** A middleware given to `wrapLanguageModel`, and the call that wraps it. */
export interface WrappedMiddleware {
  readonly object: ObjectLiteralExpression;
  readonly wrap: CallExpression;
}

/** Every middleware object literal the file hands to `wrapLanguageModel` (alone or in an array). */
export function wrappedMiddlewares(facts: AiSdkFacts): WrappedMiddleware[] {
  const found: WrappedMiddleware[] = [];
  for (const wrap of facts.callsOf("wrapLanguageModel")) {
    const options = objectLiteralOf(wrap.getArguments()[0]);
    const value = options ? propertyValue(optionNames(options).names.get("middleware")) : undefined;
    if (!value) continue;
    const inner = unwrap(value);
    const items = Node.isArrayLiteralExpression(inner) ? inner.getElements() : [inner];
    for (const item of items) {
      const object = objectLiteralOf(item);
      if (object) found.push({ object, wrap });
    }
  }
  return found;
}

/**
 * The first streaming call (`streamText`, `streamObject`) of this file that is given the model
 * `wrap` makes: directly as its `model`, or through the `const` it is stored in. Null when none is.
 */
export function streamingUseOf(wrap: CallExpression, facts: AiSdkFacts): CallExpression | null {
  const streaming = STREAMING_CALLS.flatMap((name) => facts.callsOf(name));
  if (streaming.length === 0) return null;
  const parent = wrap.getParent();
  const holder = parent && Node.isVariableDeclaration(parent) && parent.getVariableStatement()?.getDeclarationKind() === "const" ? parent : null;
  for (const call of streaming) {
    const options = objectLiteralOf(call.getArguments()[0]);
    const model = options ? propertyValue(optionNames(options).names.get("model")) : undefined;
    if (!model) continue;
    const value = unwrap(model);
    if (value === wrap) return call;
    if (holder && Node.isIdentifier(value) && valueDeclarationOf(value) === holder.compilerNode) return call;
  }
  return null;
}
