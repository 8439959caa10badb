// A user's first minutes with HookLens, clicked through in a real VS Code: find the view, run a
// program that streams its signals, open one, open the timeline, click a bar.
import { workbench } from "./runUi.mjs";

describe("HookLens in the VS Code UI", function () {
  it("has its own activity-bar container whose empty view says how to connect a program", async () => {
    const { page } = workbench();
    await page.locator('.activitybar .action-item [aria-label^="HookLens"]').first().click();
    const welcome = workbench().sideBar().locator(".welcome-view-content", { hasText: "No program is streaming signals yet." });
    await welcome.waitFor();
    await welcome.getByRole("button", { name: "Open Recorded Session…" }).waitFor();
    await page.locator(".statusbar-item", { hasText: "HookLens 0 signals" }).waitFor();
    await page.mouse.move(700, 300); // no tooltip over the view in the screenshot
    await workbench().screenshot("welcome-view");
  });

  it("streams a program run in the integrated terminal into the Signals view and the status bar", async () => {
    const { page } = workbench();
    await workbench().runCommand("Terminal: Create New Terminal");
    const terminal = page.locator(".terminal-wrapper.active .xterm");
    await terminal.waitFor();
    await terminal.click();
    await page.keyboard.type("node timeline-agent.mjs");
    await page.keyboard.press("Enter");
    await workbench().treeRow("timeline-agent.mjs").waitFor();
    // The status item counts the run's signals once the program has ended (no "live" count).
    await page.locator(".statusbar-item", { hasText: /HookLens [1-9][\d,]* signals/ }).waitFor();
    await page.mouse.move(700, 300);
    await workbench().screenshot("signals-view-after-run");
  });

  it("expands a tool call's row and opens one of its signals as JSON", async () => {
    // The failed call is one row named after what happened; its signals are inside it.
    const call = workbench().treeRow("refund — failed: RangeError: refund of 500 needs a manager");
    await call.waitFor();
    await call.click();
    const row = workbench().treeRow("tool.error refund: RangeError");
    await row.waitFor();
    await workbench().screenshot("tool-call-expanded");
    await row.click();
    await workbench().activeEditorText().filter({ hasText: "tool.error" }).waitFor();
    await workbench().screenshot("signal-opened");
  });

  it("opens the timeline, shows the calls with errors and denials, and opens a clicked bar's signal", async () => {
    await workbench().runCommand("HookLens: Show Timeline");
    const frame = workbench().timelineFrame();
    const refund = frame.locator(".row.status-error", { hasText: "refund" });
    await refund.waitFor();
    await frame.locator(".row.status-denied", { hasText: "deleteFile" }).waitFor();
    await frame.locator(".row.kind-model", { hasText: "3 chunks" }).waitFor();
    await workbench().screenshot("timeline");
    await frame.locator("#zoom-in").click();
    await workbench().screenshot("timeline-zoomed");
    await refund.locator(".label").click();
    await workbench().activeEditorText().filter({ hasText: "refund of 500 needs a manager" }).waitFor();
    await workbench().screenshot("timeline-bar-opened");
  });
});
