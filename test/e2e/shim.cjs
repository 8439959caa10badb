#!/usr/bin/env node
// Stands in for the VS Code executable that @vscode/test-electron launches. Desktop VS Code cannot
// be installed on these machines, so this runs the same extension-test protocol in a real
// VS Code server build (code-server, under Node 24) driven by headless Debian Chromium, and
// exits with the suite's exit code. Accepts test-electron's argv:
//   --extensionDevelopmentPath= --extensionTestsPath= [--user-data-dir=] [--extensions-dir=] [folder]
"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const util = require("node:util");

const { startCodeServer, launchChromium } = require("./toolchain.cjs");
const TIMEOUT_MS = Number(process.env.E2E_TIMEOUT_MS || 300_000);
// Extension-host chatter that says nothing about our tests (no network, no GitHub auth here).
const NOISE = /^\s*at |gallery|open-vsx|authentication provider|AccountPolicyGate|AgentHost|Service Worker|Creating a socket|workbench contribution/;

const argv = process.argv.slice(2);
const option = (name) => argv.filter((a) => a.startsWith(`--${name}=`)).map((a) => path.resolve(a.slice(name.length + 3)))[0];
const developmentPath = option("extensionDevelopmentPath");
const testsPath = option("extensionTestsPath");
const userDataDir = option("user-data-dir") || fs.mkdtempSync(path.join(os.tmpdir(), "hl-ud-"));
const extensionsDir = option("extensions-dir") || fs.mkdtempSync(path.join(os.tmpdir(), "hl-ext-"));
const folder = argv.find((a) => !a.startsWith("-"));
const started = Date.now();
const log = (...args) => console.log(`[vscode shim ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...args);

async function main() {
  if (!developmentPath || !testsPath) throw new Error("expected --extensionDevelopmentPath= and --extensionTestsPath=");
  const { port, serverLog, stop } = await startCodeServer({ userDataDir, extensionsDir, extraArgs: ["--vscode-option", "enable-smoke-test-driver"] });
  let browser;
  let exitCode = 1;
  try {
    log(`code-server on 127.0.0.1:${port} (log: ${serverLog})`);
    const authority = `127.0.0.1:${port}`;
    const payload = [
      ["extensionDevelopmentPath", `vscode-remote://${authority}${developmentPath}`],
      ["extensionTestsPath", `vscode-remote://${authority}${testsPath}`],
    ];
    const url =
      `http://${authority}/?` +
      (folder ? `folder=${encodeURIComponent(path.resolve(folder))}` : "ew=true") +
      `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    browser = await launchChromium();
    const page = await browser.newPage();
    let finish;
    const finished = new Promise((resolve) => (finish = resolve));
    // The workbench reports the suite's result through these two hooks (smoke-test driver).
    await page.exposeFunction("codeAutomationExit", (code) => finish(code));
    await page.exposeFunction("codeAutomationLog", (type, args) => {
      const text = util.format(...(Array.isArray(args) ? args : [args]));
      if (process.env.E2E_VERBOSE || !NOISE.test(text)) (type === "error" ? process.stderr : process.stdout).write(text + "\n");
    });
    page.on("pageerror", (error) => log("page error:", error.message.slice(0, 300)));
    // A loaded 2-core machine can take well over the default 30 s to serve the workbench page.
    await page.goto(url, { timeout: TIMEOUT_MS });
    const result = await Promise.race([finished, new Promise((resolve) => setTimeout(() => resolve("timeout"), TIMEOUT_MS))]);
    if (result === "timeout") {
      const shot = path.join(userDataDir, "timeout.png");
      await page.screenshot({ path: shot }).catch(() => undefined);
      log(`timed out after ${TIMEOUT_MS} ms; screenshot: ${shot}`);
    } else {
      exitCode = Number(result);
    }
  } finally {
    if (browser) await browser.close().catch(() => undefined);
    await stop();
  }
  return exitCode;
}

main().then(
  (code) => {
    log("exit code", code);
    process.exit(code);
  },
  (error) => {
    log("error:", error.message);
    process.exit(1);
  },
);
