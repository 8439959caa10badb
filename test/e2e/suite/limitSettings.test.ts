import * as assert from "node:assert/strict";
import net from "node:net";
import * as vscode from "vscode";
import { LIVE_PROTOCOL_VERSION, parseLiveEnv } from "@hooklens/runtime/live";
import { hookLens } from "./hookLensApi.js";
import { waitFor } from "./waitFor.js";

/** Connects to the editor's live endpoint and says hello as `title`; `closed` settles when the editor closes it. */
function greet(value: string, title: string): { socket: net.Socket; closed: Promise<void> } {
  const { endpoint, token } = parseLiveEnv(value)!;
  const socket = net.createConnection(endpoint, () => {
    socket.write(JSON.stringify({ type: "hello", protocol: LIVE_PROTOCOL_VERSION, token, pid: process.pid, title }) + "\n");
  });
  socket.on("error", () => undefined);
  return { socket, closed: new Promise((resolve) => socket.once("close", () => resolve())) };
}

describe("limit settings apply without a window reload", () => {
  it("a changed hooklens.signals limit is in force at once: the store's bounds and the live server's connection count", async () => {
    const api = await hookLens();
    const settings = () => vscode.workspace.getConfiguration("hooklens.signals");
    const runNamed = (title: string) => () => api.signals.runs().find((run) => run.title === title && run.connected);
    const opened: net.Socket[] = [];
    try {
      const held = greet(api.liveEnvironmentValue, "limits-held");
      opened.push(held.socket);
      await waitFor((listener) => api.signals.onDidChange(listener), runNamed("limits-held"), "the first connection to be accepted");

      await settings().update("live.maxConnections", 1, vscode.ConfigurationTarget.Global);
      await settings().update("maxRuns", 7, vscode.ConfigurationTarget.Global);
      // One handler applies both, the live server's first; the store then tells its listeners.
      await waitFor((listener) => api.signals.onDidChange(listener), () => api.signals.limits.maxRuns === 7, "maxRuns 7 to be in force");
      const extra = greet(api.liveEnvironmentValue, "limits-extra");
      opened.push(extra.socket);
      await extra.closed;
      assert.equal(runNamed("limits-extra")(), undefined, "with maxConnections 1 and one connection held, the next is refused");
    } finally {
      await settings().update("live.maxConnections", undefined, vscode.ConfigurationTarget.Global);
      await settings().update("maxRuns", undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor((listener) => api.signals.onDidChange(listener), () => api.signals.limits.maxRuns === 100, "the default maxRuns to be back");
    const after = greet(api.liveEnvironmentValue, "limits-after");
    opened.push(after.socket);
    await waitFor((listener) => api.signals.onDidChange(listener), runNamed("limits-after"), "a second connection to be accepted again");
    // Leave the store as the next test expects it: these runs ended and removed.
    for (const socket of opened) socket.destroy();
    const mine = (run: { title: string }) => run.title.startsWith("limits-");
    await waitFor((listener) => api.signals.onDidChange(listener), () => api.signals.runs().filter(mine).every((run) => !run.connected), "the test's connections to end");
    for (const run of api.signals.runs().filter(mine)) api.signals.removeRun(run.connectionId);
  });
});
