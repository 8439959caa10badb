// docs/runtime/otel.md shows one run twice: as the span tree a tracing backend shows, and as the
// Signals view shows it. This runs that page's example with its signals streamed over a real
// socket into the view's store, renders the view's tree as text, and checks the page shows
// exactly that (timings, which change run to run, become "…").
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SignalTreeModel, type TreeNode } from "../../../client/src/signals/model/treeModel.js";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";
import { streamRun } from "./agentRun.js";

const PAGE = "docs/runtime/otel.md";

/** The view's rows as indented text: label, and in brackets any description that is not a time. */
function render(model: SignalTreeModel, nodes: readonly TreeNode[], depth: number, lines: string[]): string[] {
  for (const node of nodes) {
    const view = model.view(node);
    lines.push(`${"  ".repeat(depth)}${untimed(view.label)}`);
    if (node.type !== "signal" && node.type !== "phase") render(model, model.children(node), depth + 1, lines);
  }
  return lines;
}

/** A label with its measured times and ids made stable. */
function untimed(label: string): string {
  return label
    .replace(/\d[\d,.]* ms/g, "… ms")
    .replace(/\b[0-9a-f]{8}\b/g, "…");
}

describe("the OpenTelemetry page's run in the Signals view", () => {
  it("is shown on the page exactly as the view lays it out", async () => {
    const { store } = await streamRun(async () => {
      await import("../../../examples/otel/spanTree.js");
    });
    const model = new SignalTreeModel(store);
    const lines = render(model, model.children(model.roots()[0]!), 0, []);
    const page = readFileSync(`${REPO_ROOT}/${PAGE}`, "utf8");
    expect(page).toContain(["<!-- signals view of examples/otel/spanTree.ts -->", "```text", ...lines, "```"].join("\n"));
  });
});
