// What the UI tests drive: one code-server (a real VS Code) with the packaged extension
// installed, opened on a workspace in headless Chromium, and helpers that act as a user would
// (clicks, keys, the Command Palette) and wait for what the screen shows, never for a fixed time.
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(import.meta.url);
const { launchChromium, startCodeServer } = require("../toolchain.cjs");

/** Generous: a loaded 2-core machine can take this long to show what a fast one shows at once. */
export const UI_TIMEOUT_MS = 120_000;

export class Workbench {
  /** @type {import("playwright-core").Page} */
  page;
  #browser;
  #server;
  #shots;
  #shotCount = 0;

  static async open({ workspace, userDataDir, extensionsDir, screenshotDir }) {
    const workbench = new Workbench();
    mkdirSync(screenshotDir, { recursive: true });
    workbench.#shots = screenshotDir;
    workbench.#server = await startCodeServer({ userDataDir, extensionsDir });
    try {
      workbench.#browser = await launchChromium();
      const page = await workbench.#browser.newPage({ viewport: { width: 1400, height: 900 } });
      page.setDefaultTimeout(UI_TIMEOUT_MS);
      workbench.page = page;
      await page.goto(`http://127.0.0.1:${workbench.#server.port}/?folder=${encodeURIComponent(workspace)}`);
      await page.locator(".monaco-workbench .part.activitybar").waitFor();
      await page.locator(".monaco-workbench .part.statusbar").waitFor();
    } catch (error) {
      await workbench.close();
      throw error;
    }
    return workbench;
  }

  /** Saves a screenshot of the whole window under the test output, numbered in order. */
  async screenshot(name) {
    const file = join(this.#shots, `${String(++this.#shotCount).padStart(2, "0")}-${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /**
   * Runs a command from the Command Palette by its title, as a user types it. With `asks`, the
   * command opens a picker or input box of its own: wait for that instead of the palette closing.
   */
  async runCommand(title, { asks = false } = {}) {
    const page = this.page;
    await page.keyboard.press("F1");
    const input = page.locator(".quick-input-widget input.input");
    await input.waitFor();
    await input.fill(`>${title}`);
    const row = page.locator(".quick-input-widget .monaco-list-row", { hasText: title }).first();
    await row.waitFor();
    // Click the row with this exact title: Enter would run whichever similar title ranks first.
    await row.click();
    if (!asks) await page.locator(".quick-input-widget").waitFor({ state: "hidden" });
  }

  /** Types a command line into the active integrated terminal (opening one when there is none) and runs it. */
  async runInTerminal(line) {
    const terminal = this.page.locator(".terminal-wrapper.active .xterm");
    if ((await terminal.count()) === 0) await this.runCommand("Terminal: Focus Terminal");
    await terminal.waitFor();
    await terminal.click();
    await this.page.keyboard.type(line);
    await this.page.keyboard.press("Enter");
  }

  /** The open picker or input box (Command Palette, a command's own quick pick). */
  quickInput() {
    return this.page.locator(".quick-input-widget");
  }

  /** The side bar (whichever view container it shows). */
  sideBar() {
    return this.page.locator('[id="workbench.parts.sidebar"]');
  }

  /** A row of a tree in the side bar whose text contains `text`. */
  treeRow(text) {
    return this.sideBar().locator(".monaco-list-row", { hasText: text }).first();
  }

  /** The body of the timeline webview (its page lives in two nested frames). */
  timelineFrame() {
    return this.page.frameLocator("iframe.webview.ready").frameLocator("iframe#active-frame");
  }

  /** The text of the active editor, as rendered. */
  activeEditorText() {
    return this.page.locator(".editor-group-container.active .monaco-editor .view-lines").first();
  }

  async close() {
    await this.#browser?.close().catch(() => undefined);
    await this.#server?.stop();
  }
}
