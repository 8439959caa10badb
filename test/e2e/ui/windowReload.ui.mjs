// Runs after the other UI tests (files run in name order): it reloads the window.
import { workbench } from "./runUi.mjs";

describe("HookLens across a window reload", function () {
  // code-server starts a new shell in a terminal restored after a reload (with the extension's
  // HOOKLENS_LIVE from before it): this holds that such a terminal streams into the new window.
  // A shell that outlives the reload with the old value is covered by test/client/liveAddress.test.ts.
  it("a terminal restored after a reload streams into the Signals view", async () => {
    const { page } = workbench();
    await workbench().runInTerminal("echo before reload");
    await workbench().runCommand("Developer: Reload Window", { asks: true });
    await page.locator(".statusbar-item", { hasText: "HookLens 0 signals" }).waitFor();
    await workbench().runCommand("Terminal: Focus Terminal");
    await workbench().runInTerminal("node timeline-agent.mjs");
    await workbench().treeRow("timeline-agent.mjs").waitFor();
    await page.locator(".statusbar-item", { hasText: /HookLens [1-9][\d,]* signals/ }).waitFor();
    await page.mouse.move(700, 300);
    await workbench().screenshot("streams-after-reload");
  });
});
