import type { TreeNode } from "./model/treeModel.js";

/** A row of the tree (menus pass them); a signal frame, which also has a `type` and an `id`, is not one. */
export function isTreeNode(value: unknown): value is TreeNode {
  return typeof value === "object" && value !== null && "type" in value && "id" in value && ("run" in value || "container" in value);
}
