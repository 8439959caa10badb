// A user's first minutes with HookLens, clicked through in a real VS Code: find the view, run a
// program that streams its signals, open one, open the timeline, click a bar, filter the tree,
// pick a recorded session.
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

  it("narrows the tree to the calls a filter matches, and shows them all again when it is cleared", async () => {
    const searchDocs = workbench().treeRow("searchDocs");
    const refund = workbench().treeRow("refund — failed");
    await searchDocs.waitFor();
    await refund.waitFor();
    await workbench().runCommand("HookLens: Filter Signals…", { asks: true });
    await workbench().quickInput().locator(".quick-input-title", { hasText: "Filter Signals" }).waitFor();
    await workbench().quickInput().locator("input.input").fill("tool:refund");
    await workbench().page.keyboard.press("Enter");
    await workbench().sideBar().getByText(/Filter tool:refund: [1-9]\d* of [1-9][\d,]* signals match\./).first().waitFor();
    await searchDocs.waitFor({ state: "detached" });
    await refund.waitFor();
    await workbench().screenshot("signals-filtered");
    await workbench().runCommand("HookLens: Clear Signals Filter");
    await searchDocs.waitFor();
  });

  it("lists a recorded session with its program, status, duration, tool calls and errors, and never shows it twice", async () => {
    const { page } = workbench();
    await workbench().runCommand("HookLens: Collapse All Signals"); // the new run's row stays in sight
    // Run in the terminal, the recording program also streams: its session is already a run in the view.
    const terminal = page.locator(".terminal-wrapper.active .xterm");
    await terminal.click();
    await page.keyboard.type("node record-agent.mjs");
    await page.keyboard.press("Enter");
    const runs = workbench().sideBar().locator(".monaco-list-row", { hasText: "record-agent.mjs" });
    await runs.first().waitFor();
    await workbench().runCommand("HookLens: Open Recorded Session…", { asks: true });
    const picker = workbench().quickInput();
    await picker.locator(".quick-input-title", { hasText: "Open Recorded Session" }).waitFor();
    await picker.locator(".monaco-list-row", { hasText: "Choose Another Database…" }).waitFor();
    // The program's row, filled in once its signals are read: how it ended, that the view already
    // shows it as a program run (live while its connection is open), then when, how long, its
    // tool calls, errors and signals.
    const row = picker.locator(".monaco-list-row", { hasText: "record-agent.mjs" });
    await row.waitFor();
    await workbench().screenshot("recordings-picker");
    for (const part of [/session [0-9a-f]{8} · completed · (live now|shown as its program run)/, / · [\d.,]+ ms · 1 tool call · 0 errors · 4 signals/]) {
      await row.filter({ hasText: part }).waitFor();
    }
    await row.click();
    await picker.waitFor({ state: "hidden" });
    // Opening focuses the Signals view once the store holds what it will show; then count.
    await workbench().sideBar().locator(".monaco-list:focus-within").first().waitFor();
    const shown = await runs.count();
    if (shown !== 1) throw new Error(`the session is shown ${shown} times in the Signals view`);
    await workbench().screenshot("recording-shown-once");
  });

  it("opens Open Recorded Session… from the view's title bar while a row is selected", async () => {
    const { page } = workbench();
    const row = workbench().treeRow("record-agent.mjs");
    await row.click();
    // The title bar's button (the container's title bar when the view is alone in it); the selected row is the command's argument.
    const button = workbench().sideBar().locator('.action-label[aria-label^="Open Recorded Session"]').first();
    await button.click();
    const picker = workbench().quickInput();
    await picker.locator(".quick-input-title", { hasText: "Open Recorded Session" }).waitFor();
    await workbench().screenshot("open-recording-from-title-bar");
    const failed = await page.locator(".notifications-toasts", { hasText: "bad arguments" }).count();
    if (failed > 0) throw new Error("Open Recorded Session… refused the selected row as its argument");
    await page.keyboard.press("Escape");
    await picker.waitFor({ state: "hidden" });
  });
});
