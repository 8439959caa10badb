// How a denial names the flow node it was about, shared by `hooklens show` and the Signals view.

/** A middleware hook's phases around a flow node (`cached.beforeNode`): a denial it decided was about a node. */
export const NODE_PHASE = /\.(beforeNode|afterNode|onNodeError)$/;

/** `support/classify` from a denial's `flowName` and `nodeName`; the node alone without its flow; null without a node. */
export function deniedNodeName(flowName: string | null, nodeName: string | null): string | null {
  if (nodeName === null) return null;
  return flowName === null ? nodeName : `${flowName}/${nodeName}`;
}
