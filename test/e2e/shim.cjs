#!/usr/bin/env node
// Stands in for the VS Code executable that @vscode/test-electron launches. Desktop VS Code cannot
// be installed on these machines, so this runs the same extension-test protocol in a real
// VS Code server build (code-server, under Node 24) driven by headless Debian Chromium, and
// exits with the suite's exit code. Accepts test-electron's argv:
//   --extensionDevelopmentPath= --extensionTestsPath= [--user-data-dir=] [--extensions-dir=] [folder]
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const net = require("node:net");
const os = require("node:os");
const path = require("node:path");
const util = require("node:util");
const { chromium } = require("playwright-core");

const { NODE24, ENTRY, CHROMIUM, codeServerArgs } = require("./toolchain.cjs");
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

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitHealthy(port, deadline) {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("code-server did not become healthy within 60 s");
}

function writeQuietSettings() {
  const settings = path.join(userDataDir, "User", "settings.json");
  fs.mkdirSync(path.dirname(settings), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.writeFileSync(
    settings,
    JSON.stringify({
      "workbench.startupEditor": "none",
      "chat.disableAIFeatures": true,
      "telemetry.telemetryLevel": "off",
      "extensions.autoCheckUpdates": false,
      "extensions.autoUpdate": false,
      "update.mode": "none",
      "workbench.secondarySideBar.defaultVisibility": "hidden",
      "terminal.integrated.enablePersistentSessions": false,
    }),
  );
}

async function main() {
  if (!developmentPath || !testsPath) throw new Error("expected --extensionDevelopmentPath= and --extensionTestsPath=");
  for (const file of [NODE24, ENTRY]) if (!fs.existsSync(file)) throw new Error(`missing ${file}: run test/e2e/install.sh`);
  writeQuietSettings();
  const port = await freePort();
  const config = path.join(userDataDir, "code-server.yaml");
  fs.writeFileSync(config, "auth: none\ncert: false\n");
  const serverLog = path.join(userDataDir, "code-server.log");
  const server = spawn(
    NODE24,
    [...codeServerArgs({ config, userDataDir, extensionsDir }), "--bind-addr", `127.0.0.1:${port}`, "--auth", "none",
      "--vscode-option", "enable-smoke-test-driver"],
    { stdio: ["ignore", fs.openSync(serverLog, "w"), fs.openSync(serverLog, "a")], detached: true, env: process.env },
  );
  let browser;
  let exitCode = 1;
  try {
    await waitHealthy(port, Date.now() + 60_000);
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
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
    });
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
    await page.goto(url);
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
    // code-server forks a file watcher, the extension host and our language server: end the group.
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      // already gone
    }
    await new Promise((resolve) => {
      server.once("exit", resolve);
      setTimeout(resolve, 5_000);
    });
    try {
      process.kill(-server.pid, "SIGKILL");
    } catch {
      // already gone
    }
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
