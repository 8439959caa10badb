#!/usr/bin/env node
// The `hooklens` bin. npm links bins when it installs, before `npm run build` creates the CLI
// bundle, so the link must point at a file that is in the repository: this one, which loads
// the bundle and says what to do when it is not built yet.
"use strict";
const { existsSync } = require("node:fs");
const { join } = require("node:path");

const bundle = join(__dirname, "..", "dist", "cli.cjs");
if (!existsSync(bundle)) {
  process.stderr.write("hooklens: the CLI is not built yet (server/dist/cli.cjs is missing); run `npm run build` (or `npm run demo`) first.\n");
  process.exit(2);
}
require(bundle);
