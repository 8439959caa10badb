// Runs the Playwright UI tests (every *.ui.mjs beside this file, with mocha) against a real
// VS Code with the packaged extension installed; screenshots go to `screenshotDir`.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Mocha from "mocha";
import { UI_TIMEOUT_MS, Workbench } from "./workbench.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
let current;

/** The workbench the running UI tests drive. */
export function workbench() {
  if (!current) throw new Error("the UI tests run through runUiTests()");
  return current;
}

/** Opens the workbench, runs the UI tests in order, closes it; resolves with the counts. */
export async function runUiTests({ workspace, userDataDir, extensionsDir, screenshotDir }) {
  // Each test waits for up to UI_TIMEOUT_MS per step; the mocha limit only catches a hang.
  const mocha = new Mocha({ ui: "bdd", timeout: 4 * UI_TIMEOUT_MS, color: false });
  for (const file of readdirSync(here).filter((name) => name.endsWith(".ui.mjs")).sort()) mocha.addFile(join(here, file));
  await mocha.loadFilesAsync();
  try {
    current = await Workbench.open({ workspace, userDataDir, extensionsDir, screenshotDir });
  } catch (error) {
    console.error("e2e ui: could not open VS Code:", error instanceof Error ? error.message : error);
    return { passed: 0, failed: 1 };
  }
  const shots = [];
  try {
    return await new Promise((resolve) => {
      const runner = mocha.run((failures) => resolve({ passed: runner.stats?.passes ?? 0, failed: failures }));
      // Taken before the workbench closes: the run's end waits for them.
      runner.on("fail", () => void shots.push(current.screenshot("failure").catch(() => undefined)));
    });
  } finally {
    await Promise.all(shots);
    await current.close();
    current = undefined;
  }
}
