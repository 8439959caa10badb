// Runs the end-to-end suite inside a real VS Code (see shim.cjs) through @vscode/test-electron,
// against the packaged .vsix installed into a fresh profile (what users install, not the
// development folder). Prepares a throw-away workspace in which `@hooklens/runtime` resolves to
// this repository's build, as it would for a user who installed it, then prints a
// `N passed, N failed` line.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runTests } from "@vscode/test-electron";
import { runUiTests } from "./ui/runUi.mjs";
import { installExtension, packageExtension } from "./vsix.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
const vsix = packageExtension(root);
console.log(`e2e: packaged ${vsix.path} (${(vsix.bytes / 1024 / 1024).toFixed(2)} MB) in ${seconds()} s`);
const suite = join(root, "dist/test/e2e/suite/index.js");
if (!existsSync(suite) || !existsSync(join(root, "dist/client/extension.js")) || !existsSync(join(root, "runtime/dist/index.js"))) {
  console.error("e2e: `npm run package` did not build the suite, the extension and the runtime");
  process.exit(1);
}

/** A throw-away copy of the fixtures in which `@hooklens/runtime` resolves to this repository's build. */
function prepareWorkspace(prefix) {
  const workspace = mkdtempSync(join(tmpdir(), prefix));
  cpSync(join(root, "test/e2e/fixtures"), workspace, { recursive: true });
  mkdirSync(join(workspace, "node_modules/@hooklens"), { recursive: true });
  symlinkSync(join(root, "runtime"), join(workspace, "node_modules/@hooklens/runtime"), "dir");
  return workspace;
}

const workspace = prepareWorkspace("hl-ws-");
const results = join(workspace, ".e2e-results.json");
// A fresh VS Code profile per run: two runs at once (or a crashed earlier one) never share state.
const profile = mkdtempSync(join(tmpdir(), "hl-vscode-profile-"));
const userDataDir = join(profile, "user-data");
const extensionsDir = join(profile, "extensions");
installExtension(vsix.path, { userDataDir, extensionsDir });

let exitCode = 1;
try {
  exitCode = await runTests({
    vscodeExecutablePath: join(root, "test/e2e/shim.cjs"),
    // The test protocol needs a development path; this folder holds no extension, so the
    // extension under test is the installed .vsix.
    extensionDevelopmentPath: join(root, "dist/test/e2e"),
    extensionTestsPath: suite,
    launchArgs: [workspace, `--user-data-dir=${userDataDir}`, `--extensions-dir=${extensionsDir}`],
    extensionTestsEnv: { HOOKLENS_E2E_RESULTS: results, HOOKLENS_E2E_WORKSPACE: workspace, HOOKLENS_E2E_EXTENSIONS: extensionsDir, HOOKLENS_E2E_USER_DATA: userDataDir },
  });
} catch (error) {
  console.error("e2e:", error instanceof Error ? error.message : error);
}
const counts = existsSync(results) ? JSON.parse(readFileSync(results, "utf8")) : { passed: 0, failed: 1 };
if (exitCode !== 0 && counts.failed === 0) counts.failed = 1;
console.log(`e2e: extension-host suite ${counts.passed} passed, ${counts.failed} failed (${seconds()} s)`);

// The Playwright UI tests: the same installed extension, a fresh profile and a fresh copy of the
// workspace, clicked through as a user would. Screenshots land in test-results/e2e-ui (git-ignored).
// HOOKLENS_E2E_GREP (a quick run of some extension-host tests) leaves them out.
if (!process.env.HOOKLENS_E2E_GREP) {
  const uiWorkspace = prepareWorkspace("hl-ui-ws-");
  const screenshotDir = join(root, "test-results/e2e-ui");
  rmSync(screenshotDir, { recursive: true, force: true });
  const ui = await runUiTests({ workspace: uiWorkspace, userDataDir: join(profile, "ui-user-data"), extensionsDir, screenshotDir });
  console.log(`e2e: UI tests ${ui.passed} passed, ${ui.failed} failed; screenshots in ${screenshotDir}`);
  counts.passed += ui.passed;
  counts.failed += ui.failed;
  rmSync(uiWorkspace, { recursive: true, force: true });
}
console.log(`e2e: ${counts.passed} passed, ${counts.failed} failed (${seconds()} s)`);
mkdirSync(join(root, ".cache"), { recursive: true });
writeFileSync(join(root, ".cache/e2e-results.json"), JSON.stringify(counts));
rmSync(workspace, { recursive: true, force: true });
rmSync(profile, { recursive: true, force: true });
process.exit(exitCode === 0 && counts.failed === 0 ? 0 : 1);
