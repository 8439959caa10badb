// Builds every artefact: the runtime (ESM + CJS + .d.ts), the server and CLI bundles, the
// extension bundle and the end-to-end suite. `--production` minifies the extension bundles.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const production = process.argv.includes("--production");
const require = createRequire(import.meta.url);
const alias = {
  "@hooklens/runtime/live": `${root}runtime/src/live/index.ts`,
  "@hooklens/runtime/store": `${root}runtime/src/store/index.ts`,
  "@hooklens/runtime": `${root}runtime/src/index.ts`,
};
// node-sqlite3-wasm loads its .wasm from next to its own JS (__dirname): bundles must require it from
// node_modules instead of inlining it.
const sqlite = "node-sqlite3-wasm";
// pg is an optional peer of the runtime, loaded only when a PostgreSQL store opens: bundles require it
// from node_modules when installed. pg itself optionally requires pg-native, which is never installed here.
const pg = ["pg", "pg-native"];
// The extension ships without node_modules (vsce --no-dependencies), so its bundle requires a copy
// of node-sqlite3-wasm (JS and .wasm) placed next to it.
const vendorDir = "dist/client/vendor";
const vendoredSqlite = {
  name: "vendored-sqlite",
  setup(build) {
    build.onResolve({ filter: /^node-sqlite3-wasm$/ }, () => ({ path: "./vendor/node-sqlite3-wasm.js", external: true }));
  },
};
const common = { bundle: true, platform: "node", target: "node20", sourcemap: !production, logLevel: "warning", absWorkingDir: root };

rmSync(`${root}dist`, { recursive: true, force: true });
rmSync(`${root}runtime/dist`, { recursive: true, force: true });
rmSync(`${root}server/dist`, { recursive: true, force: true });

const runtimeEntries = { index: "runtime/src/index.ts", live: "runtime/src/live/index.ts", store: "runtime/src/store/index.ts" };
const runtimeManifest = require(`${root}runtime/package.json`);
const runtimeExternal = Object.keys({ ...runtimeManifest.dependencies, ...runtimeManifest.peerDependencies });
await Promise.all([
  esbuild.build({ ...common, entryPoints: runtimeEntries, outdir: "runtime/dist", format: "esm", external: runtimeExternal, sourcemap: true }),
  esbuild.build({ ...common, entryPoints: runtimeEntries, outdir: "runtime/dist", format: "cjs", outExtension: { ".js": ".cjs" }, external: runtimeExternal, sourcemap: true }),
  esbuild.build({ ...common, entryPoints: { server: "server/src/server.ts" }, outdir: "dist", format: "cjs", alias, external: [sqlite, ...pg], minify: production }),
  // The CLI ships with the server package (its `hooklens` bin), not in the extension.
  esbuild.build({ ...common, entryPoints: { cli: "server/src/cli.ts" }, outdir: "server/dist", format: "cjs", outExtension: { ".js": ".cjs" }, alias, external: [sqlite, ...pg], banner: { js: "#!/usr/bin/env node" } }),
  esbuild.build({ ...common, entryPoints: { extension: "client/src/extension.ts" }, outdir: "dist/client", format: "cjs", alias, external: ["vscode"], plugins: [vendoredSqlite], minify: production }),
  esbuild.build({ ...common, entryPoints: ["test/e2e/suite/*.ts"], outdir: "dist/test/e2e/suite", format: "cjs", alias, external: ["vscode", "mocha", sqlite, ...pg] }),
]);
// The server package's `hooklens-language-server` bin runs the very bundle the extension ships.
copyFileSync(`${root}dist/server.js`, `${root}server/dist/server.cjs`);
if (!production) copyFileSync(`${root}dist/server.js.map`, `${root}server/dist/server.js.map`);
mkdirSync(`${root}${vendorDir}`, { recursive: true });
for (const file of ["node-sqlite3-wasm.js", "node-sqlite3-wasm.wasm"]) {
  copyFileSync(join(dirname(require.resolve(sqlite)), file), `${root}${vendorDir}/${file}`);
}
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "runtime/tsconfig.build.json"], { cwd: root, stdio: "inherit" });
console.log(`built runtime/dist and dist/${production ? " (production)" : ""}`);
