#!/usr/bin/env node
// The `hooklens-language-server` bin: the HookLens language server for any LSP editor. npm links
// bins when it installs, before `npm run build` creates the bundle, so the link points at this
// committed file, which loads the bundle (the same bytes as the extension's dist/server.js).
"use strict";
const { existsSync } = require("node:fs");
const { join } = require("node:path");

const USAGE = `Usage: hooklens-language-server --stdio | --node-ipc | --socket=<port> | --pipe=<name>

The HookLens language server: diagnostics, hovers and code actions for code that uses
@hooklens/runtime, in any editor that speaks the Language Server Protocol.

  --stdio                  speak LSP over stdin and stdout (what most editors start)
  --node-ipc               over Node's IPC channel (a Node client that forked this process)
  --socket=<port>          connect to the client listening on this TCP port
  --pipe=<name>            connect to the client's named pipe or Unix socket
  --clientProcessId=<pid>  exit when that process ends (initialize's processId does the same)
  --version                print the version and exit
  --help                   print this text and exit

Settings (initializationOptions or workspace/configuration, section "hooklens"):
enable, rules (per code: error, warning, information, hint, off), run (onType, onSave).
Editor set-ups: docs/editors.md.`;

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (args.includes("--version") || args.includes("-v")) {
  process.stdout.write(`${require("../package.json").version}\n`);
  process.exit(0);
}
if (!args.some((arg) => /^--(stdio|node-ipc|socket|pipe)(=|$)/.test(arg))) {
  process.stderr.write(`hooklens-language-server: say how to talk to the editor (usually --stdio).\n\n${USAGE}\n`);
  process.exit(2);
}
const bundle = join(__dirname, "..", "dist", "server.cjs");
if (!existsSync(bundle)) {
  process.stderr.write("hooklens-language-server: the server is not built yet (server/dist/server.cjs is missing); run `npm run build` (or `npm run demo`) first.\n");
  process.exit(2);
}

// The server runs with the same Node flags whoever starts it (a heap limit keeps a large workspace
// from growing it without bound). Flags cannot be set once Node runs, so without them the bundle
// is started again as a child with them; the editor still talks to it as before.
const { SERVER_NODE_FLAGS } = require("../dist/launchOptions.cjs");
const nodeOptions = (process.env.NODE_OPTIONS || "").split(/\s+/);
const hasHeapLimit = [...process.execArgv, ...nodeOptions].some((flag) => flag.startsWith("--max-old-space-size"));
if (hasHeapLimit) require(bundle);
else relaunchWithFlags();

function relaunchWithFlags() {
  const { spawn } = require("node:child_process");
  const ipc = typeof process.send === "function";
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...process.execArgv, bundle, ...args], {
    stdio: ipc ? ["inherit", "inherit", "inherit", "ipc"] : "inherit",
  });
  if (ipc) {
    // --node-ipc: the editor's channel ends here, so messages are passed on both ways.
    process.on("message", (message) => child.connected && child.send(message));
    child.on("message", (message) => process.connected && process.send(message));
    process.on("disconnect", () => child.connected && child.disconnect());
  }
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  child.on("error", (error) => {
    process.stderr.write(`hooklens-language-server: could not start the server: ${error.message}\n`);
    process.exit(1);
  });
}
