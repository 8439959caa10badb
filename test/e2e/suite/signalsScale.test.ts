import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { LiveRun } from "../../../client/src/signals/signalStore.js";
import { hookLens, workspaceFolder } from "./hookLensApi.js";
import { waitFor } from "./waitFor.js";

const SIGNALS = 100_000;

describe("the Signals view with 100,000 signals in one run", () => {
  after(() => vscode.commands.executeCommand("hooklens.signals.clear"));

  it("keeps the extension host answering while a run of 100,000+ signals arrives, and lists it paged", async function () {
    this.timeout(600_000); // 15,000 tool calls streamed and grouped: minutes on a loaded 2-core machine
    const api = await hookLens();
    await vscode.commands.executeCommand("hooklens.signals.clear");
    await vscode.commands.executeCommand("hooklens.signals.showGrouped");

    // Event-loop lag of the extension host, sampled while the run streams: the view must let it
    // breathe between batches (a stall for the whole run would leave the samples at zero).
    const lags: number[] = [];
    let last = performance.now();
    const sampler = setInterval(() => {
      const now = performance.now();
      if (api.signals.runs().some((r) => r.title === "scale-agent.mjs" && r.connected)) lags.push(now - last - 50);
      last = now;
    }, 50);
    const terminal = vscode.window.createTerminal({ name: "hooklens scale", cwd: workspaceFolder().uri });
    let run: LiveRun;
    try {
      terminal.sendText("node scale-agent.mjs");
      run = await waitFor(
        (listener) => api.signals.onDidChange(listener),
        () => api.signals.runs().find((r) => r.title === "scale-agent.mjs" && !r.connected),
        "scale-agent.mjs to stream its 15,000 calls and say bye",
        540_000,
      );
    } finally {
      clearInterval(sampler);
      terminal.dispose();
    }
    const sorted = [...lags].sort((a, b) => a - b);
    console.log(`      event-loop lag while streaming: ${lags.length} samples, median ${Math.round(sorted[sorted.length >> 1] ?? 0)} ms, max ${Math.round(sorted[sorted.length - 1] ?? 0)} ms`);
    assert.ok(lags.length >= 2, "the extension host ran timers while the signals arrived");

    const [session] = [...run.sessions.values()];
    assert.ok(session);
    // Every signal is shown, evicted past the per-session bound (counted), or reported dropped.
    const accounted = session.signals.length + session.evicted + run.dropped;
    assert.ok(accounted >= SIGNALS, `accounted for ${accounted} signals`);
    assert.ok(session.signals.length <= 100_000, "the per-session bound holds");
    assert.ok(session.evicted > 0, "the oldest signals were evicted and counted");

    // Run → session → branch → pages of calls, not 15,000 rows under one parent.
    const [runNode] = api.signalTree.getChildren();
    assert.match(String(api.signalTree.getTreeItem(runNode!).description), /^ended · pid \d+ · [\d,]+ signals/);
    const [sessionNode] = api.signalTree.getChildren(runNode);
    const branch = api.signalTree.getChildren(sessionNode).find((node) => node.type === "branch");
    assert.ok(branch, "the calls are under their branch");
    const pages = api.signalTree.getChildren(branch);
    assert.ok(pages.length > 1 && pages.every((node) => node.type === "range"), `${pages.length} rows under the branch`);
    const lastPage = api.signalTree.getChildren(pages[pages.length - 1]);
    assert.ok(lastPage.length > 0 && lastPage.length <= 200, `${lastPage.length} rows in the last page`);
    assert.ok(lastPage.every((node) => node.type === "call"));
    // The last call (id 15,000) is a declined charge, labelled by what happened.
    assert.equal(String(api.signalTree.getTreeItem(lastPage[lastPage.length - 1]!).label), "charge — failed: RangeError: charge 15000 declined");
  });
});
