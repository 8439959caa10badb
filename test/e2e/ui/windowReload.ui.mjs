// Runs after the other UI tests (files run in name order): it reloads the window.
import { workbench } from "./runUi.mjs";

describe("HookLens across a window reload", function () {
  it("a terminal opened before the reload still streams into the Signals view after it", async () => {
    const { page } = workbench();
    // A mark only this terminal's shell holds: the program below runs only in the terminal from before.
    await workbench().runInTerminal("HL_BEFORE_RELOAD=1");
    await workbench().runCommand("Developer: Reload Window", { asks: true });
    await page.locator(".statusbar-item", { hasText: "HookLens 0 signals" }).waitFor();
    await workbench().runCommand("Terminal: Focus Terminal");
    await workbench().runInTerminal('test -n "$HL_BEFORE_RELOAD" && node timeline-agent.mjs');
    await workbench().treeRow("timeline-agent.mjs").waitFor();
    await page.locator(".statusbar-item", { hasText: /HookLens [1-9][\d,]* signals/ }).waitFor();
    await page.mouse.move(700, 300);
    await workbench().screenshot("streams-after-reload");
  });
});
