import { Node, type CallExpression } from "ts-morph";
import { optionNames, optionsCalls } from "./facts.js";
import { STREAMING_CALLS } from "./middlewares.js";
import type { AiSdkRule } from "./rule.js";

const WHY =
  "`streamText` and `streamObject` return at once and never throw for what goes wrong later: a provider error, a " +
  "rate limit or a failed tool becomes an `error` part of the stream, handed to `onError` (by default it is only " +
  "logged to the console). This `catch` never sees them. Pass `onError` to the call (or read the stream's `error` " +
  "parts), and keep the `catch` for what the call itself can throw.";

export const tryAroundStream: AiSdkRule = {
  code: "HL305",
  name: "try-around-stream",
  defaultSeverity: "warning",
  summary: "try/catch around streamText/streamObject with no onError: stream errors never reach the catch.",
  check(context) {
    for (const { name, call, options } of optionsCalls(context.facts, STREAMING_CALLS)) {
      if (!enclosingTry(call)) continue;
      const { names, open } = optionNames(options);
      if (open || names.has("onError")) continue;
      const callee = call.getExpression();
      context.report({ start: callee.getStart(), end: callee.getEnd(), message: `${name} errors never reach this catch: they become stream parts; add onError`, explanation: WHY });
    }
  },
};

/**
 * The try statement whose block holds `call` in the same function, with a catch clause and no
 * `await` in its block: an awaited result (`await result.text`) can reject into the catch.
 */
function enclosingTry(call: CallExpression): Node | undefined {
  let child: Node = call;
  for (let node = call.getParent(); node; child = node, node = node.getParent()) {
    if (Node.isFunctionLikeDeclaration(node) || Node.isArrowFunction(node) || Node.isFunctionExpression(node)) return undefined;
    if (Node.isTryStatement(node) && node.getTryBlock() === child) {
      if (!node.getCatchClause()) return undefined;
      const awaits = node.getTryBlock().getDescendants().some((d) => Node.isAwaitExpression(d) || (Node.isForOfStatement(d) && d.isAwaited()));
      return awaits ? undefined : node;
    }
  }
  return undefined;
}
