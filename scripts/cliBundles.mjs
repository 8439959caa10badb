// The `hooklens` CLI as two bundles in one folder: cli.cjs (argument parsing, `sessions`, `show`,
// `--version`, `--help`) and check.cjs (`hooklens check`: the analyzer with ts-morph and TypeScript,
// almost all of the bytes), which cli.cjs requires only when it runs `check`, so the other
// commands start without reading and compiling it. scripts/build.mjs and the tests' bundles
// (test/helpers/serverBundles.ts) both build them here, so the tests run what users get.
import { join } from "node:path";
import * as esbuild from "esbuild";
import { compileTypeScriptEagerly } from "./eagerTypeScript.mjs";
import { RUNTIME_EXTERNALS, runtimeSourceAliases } from "./runtimeBundles.mjs";
import { tsMorphOnce } from "./tsMorphOnce.mjs";
import { zodLocalesOut } from "./zodLocalesOut.mjs";

/** How cli.cjs requires the check command's bundle (beside itself). */
const CHECK_BUNDLE = "./check.cjs";

/** Resolves the CLI's import of the check command to the separate bundle instead of inlining it. */
const checkApart = {
  name: "check-apart",
  setup(build) {
    build.onResolve({ filter: /^\.\/cli\/check\/command\.js$/ }, (args) =>
      args.importer.endsWith("cli.ts") ? { path: CHECK_BUNDLE, external: true } : undefined,
    );
  },
};

/**
 * Builds cli.cjs and check.cjs into `outdir`. `root`: the repository (sources and node_modules);
 * `sourcemap`: whether to write source maps.
 */
export function buildCliBundles(root, outdir, { sourcemap = false } = {}) {
  const options = {
    absWorkingDir: root,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    outdir,
    outExtension: { ".js": ".cjs" },
    sourcemap,
    logLevel: "warning",
    // As the server's bundle: no keepNames (it slows TypeScript's parser several times, see scripts/build.mjs).
    keepNames: false,
    alias: runtimeSourceAliases(root),
    external: RUNTIME_EXTERNALS,
  };
  return Promise.all([
    // `import()` becomes require(): Node's import() of a CommonJS file first scans all of it for
    // its export names (cjs-module-lexer), ~0.7 s for check.cjs.
    esbuild.build({ ...options, entryPoints: { cli: "server/src/cli.ts" }, plugins: [checkApart], supported: { "dynamic-import": false }, banner: { js: "#!/usr/bin/env node" } }),
    // Minified like the server's bundle (identifiers kept): fewer bytes to read and parse at every run.
    esbuild
      .build({ ...options, entryPoints: { check: "server/src/cli/check/command.ts" }, minifyWhitespace: true, minifySyntax: true, plugins: [tsMorphOnce(root), zodLocalesOut()] })
      .then(() => compileTypeScriptEagerly(join(outdir, "check.cjs"))),
  ]);
}
