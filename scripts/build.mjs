// Builds every artefact: the runtime (ESM + CJS, with .d.ts and .d.cts types), the server and
// CLI bundles, the extension bundle and the end-to-end suite. `--production` minifies the
// extension bundles; `--runtime` builds only the runtime (its `prepack`).
import { isAscii } from "node:buffer";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { buildCliBundles } from "./cliBundles.mjs";
import { cleanDist } from "./cleanDist.mjs";
import { compileTypeScriptEagerly } from "./eagerTypeScript.mjs";
import { buildRuntimeBundles, RUNTIME_EXTERNALS, runtimeSourceAliases } from "./runtimeBundles.mjs";
import { shippedLibPlugin, writeShippedLib } from "./shippedLib.mjs";
import { tsMorphOnce } from "./tsMorphOnce.mjs";
import { zodLocalesOut } from "./zodLocalesOut.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const production = process.argv.includes("--production");
const runtimeOnly = process.argv.includes("--runtime");
const require = createRequire(import.meta.url);
const alias = runtimeSourceAliases(root);
// The SQLite driver, of which the extension carries its own copy (below).
const sqlite = "node-sqlite3-wasm";
// The extension ships without node_modules (vsce --no-dependencies), so its bundle requires a copy
// of node-sqlite3-wasm (JS and .wasm) placed next to it.
const vendorDir = "dist/client/vendor";
const vendoredSqlite = {
  name: "vendored-sqlite",
  setup(build) {
    build.onResolve({ filter: /^node-sqlite3-wasm$/ }, () => ({ path: "./vendor/node-sqlite3-wasm.js", external: true }));
  },
};
// keepNames: class and function names survive bundling, so `error.name`, `constructor.name` and
// stack traces say `ToolUsageError` or `SessionObserver`, not an esbuild-renamed `_ToolUsageError2`.
const common = { bundle: true, platform: "node", target: "node20", sourcemap: !production, keepNames: true, logLevel: "warning", absWorkingDir: root };
// The analyzer's bundles (server, CLI) do without keepNames: esbuild names every function by a call
// to Object.defineProperty where it is created, and TypeScript's parser and checker create closures
// on hot paths, so that made parsing a file 3-5x slower. Identifiers are left unminified instead,
// so names stay readable; none of the project's classes is renamed by bundling (checked when this
// was changed: only module-private helpers and constants get a numeric suffix).
// ts-morph's exports are copied once at start, not once per importing module (tsMorphOnce.mjs).
// zod's translated messages are left out of both (zodLocalesOut.mjs).
const analyzer = { ...common, keepNames: false, plugins: [tsMorphOnce(root), zodLocalesOut()] };
// As in server/src/serverBundle.ts (test/server/lsp/compileCache.test.ts checks the built bundle).
const SERVER_BUNDLE_WRAPPER = "(function (exports, require, module, __filename, __dirname) {";
const SERVER_BUNDLE_WRAPPER_END = "\n})";

rmSync(`${root}runtime/dist`, { recursive: true, force: true });
if (!runtimeOnly) {
  cleanDist(`${root}dist`);
  rmSync(`${root}server/dist`, { recursive: true, force: true });
}

const runtimeBuilds = [buildRuntimeBundles(root, "runtime/dist")];
if (runtimeOnly) {
  await Promise.all(runtimeBuilds);
  buildRuntimeTypes();
  console.log("built runtime/dist");
  process.exit(0);
}
await Promise.all([
  ...runtimeBuilds,
  // The server: a small entry (dist/server.js) that loads the bundle (server-main.cjs) through a V8
  // compile cache. The bundle is always minified (whitespace and syntax; identifiers kept): fewer
  // bytes to read and parse at every start; the source map (not shipped) maps it back.
  esbuild.build({ ...common, entryPoints: { server: "server/src/serverLoader.ts" }, outdir: "dist", format: "cjs" }),
  // It is one function expression, the wrapper Node puts around a CommonJS module
  // (server/src/serverBundle.ts): the entry compiles its text as read, without wrapping it in a
  // new string V8 would copy whole at every start.
  esbuild.build({ ...analyzer, entryPoints: { "server-main": "server/src/server.ts" }, outdir: "dist", outExtension: { ".js": ".cjs" }, format: "cjs", alias, external: RUNTIME_EXTERNALS, minifyWhitespace: true, minifySyntax: true, banner: { js: SERVER_BUNDLE_WRAPPER }, footer: { js: SERVER_BUNDLE_WRAPPER_END }, plugins: [...analyzer.plugins, shippedLibPlugin()] }),
  // The CLI ships with the server package (its `hooklens` bin), not in the extension.
  buildCliBundles(root, `${root}server/dist`, { sourcemap: !production }),
  // The Node flags the server runs with, for the `hooklens-language-server` bin (a committed .cjs file).
  esbuild.build({ ...common, entryPoints: { launchOptions: "server/src/launchOptions.ts" }, outdir: "server/dist", format: "cjs", outExtension: { ".js": ".cjs" } }),
  esbuild.build({ ...common, entryPoints: { extension: "client/src/extension.ts" }, outdir: "dist/client", format: "cjs", alias, external: ["vscode"], plugins: [vendoredSqlite], minify: production }),
  // The timeline webview's script and stylesheet: a browser page, so no Node built-ins; shipped
  // in the extension (never fetched from a CDN) and loaded under a nonce-based CSP.
  esbuild.build({
    ...common,
    platform: "browser",
    target: "es2022",
    entryPoints: ["client/src/timeline/webview/timeline.ts", "client/src/timeline/webview/timeline.css"],
    outdir: "dist/client/timeline",
    format: "iife",
    minify: production,
  }),
  esbuild.build({ ...common, entryPoints: ["test/e2e/suite/*.ts"], outdir: "dist/test/e2e/suite", format: "cjs", alias, external: ["vscode", "mocha", ...RUNTIME_EXTERNALS] }),
]);
compileTypeScriptEagerly(`${root}dist/server-main.cjs`);
// The entry reads the server bundle as latin1 text, which is the same text only for ASCII (esbuild
// escapes everything else in code and strings; a comment kept as written could bring some in).
if (!isAscii(readFileSync(`${root}dist/server-main.cjs`))) throw new Error("dist/server-main.cjs is not ASCII: the entry would read it wrongly");
// The server package's `hooklens-language-server` bin runs the very bundle the extension ships.
copyFileSync(`${root}dist/server.js`, `${root}server/dist/server.cjs`);
copyFileSync(`${root}dist/server-main.cjs`, `${root}server/dist/server-main.cjs`);
// TypeScript's library files, which the server's bundle no longer embeds (scripts/shippedLib.mjs).
writeShippedLib(root, `${root}dist`);
writeShippedLib(root, `${root}server/dist`);
if (!production) copyFileSync(`${root}dist/server-main.cjs.map`, `${root}server/dist/server-main.cjs.map`);
mkdirSync(`${root}${vendorDir}`, { recursive: true });
for (const file of ["node-sqlite3-wasm.js", "node-sqlite3-wasm.wasm"]) {
  copyFileSync(join(dirname(require.resolve(sqlite)), file), `${root}${vendorDir}/${file}`);
}
buildRuntimeTypes();
console.log(`built runtime/dist and dist/${production ? " (production)" : ""}`);

/**
 * The runtime's declarations, twice: `.d.ts` for `import` and `.d.cts` for `require`. TypeScript
 * reads a `.d.ts` in this `"type": "module"` package as ESM, so a CommonJS consumer under
 * node16/nodenext needs declarations of CommonJS format; the `.d.cts` tree is the same text with
 * relative specifiers pointing at `.cjs`, so it resolves within itself.
 */
function buildRuntimeTypes() {
  execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "runtime/tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith(".d.ts")) {
        const text = readFileSync(path, "utf8").replace(/(from\s+|import\()(["'])(\.{1,2}\/[^"']*)\.js\2/g, "$1$2$3.cjs$2");
        writeFileSync(path.replace(/\.d\.ts$/, ".d.cts"), text);
      }
    }
  };
  visit(`${root}runtime/dist`);
}
