// The runtime's JavaScript as it ships: ESM and CJS, one entry per package subpath. Used by
// scripts/build.mjs (into runtime/dist) and by the test run that executes the runtime's suites
// against the built files (test/setup/runtimeDist.ts), so both see the same bundler settings.
import { createRequire } from "node:module";
import { join } from "node:path";
import * as esbuild from "esbuild";

const require = createRequire(import.meta.url);

/** Package subpath → source entry. `index` is `.`; the others re-export parts of it. */
export const RUNTIME_ENTRIES = { index: "runtime/src/index.ts", live: "runtime/src/live/index.ts", store: "runtime/src/store/index.ts", "ai-sdk": "runtime/src/ai-sdk/index.ts" };
/**
 * The OpenTelemetry export: not part of `.` (it imports `@opentelemetry/api`, an optional peer),
 * so its CJS file cannot re-export from `index.cjs`; it is bundled alone, loading the main entry
 * (never a copy of it), and the main entry loads it only when HOOKLENS_OTEL asks.
 */
export const OTEL_ENTRY = { otel: "runtime/src/otel/index.ts" };
/** Preloaded with `node --import`: records a program's AI SDK calls; its only effect is that call. */
export const REGISTER_ENTRY = { "ai-sdk-register": "runtime/src/ai-sdk/register.ts" };
/**
 * The Claude Agent SDK and OpenAI Agents bridges: bundled alone as the OpenTelemetry export is (its CJS loads the
 * main entry), so the main entry carries none of it; it imports only types from the SDK.
 */
export const BRIDGE_ENTRIES = { "claude-agent-sdk": "runtime/src/claude-agent-sdk/index.ts", "openai-agents": "runtime/src/openai-agents/index.ts" };
/** Every entry bundled alone on top of the main one. */
const SEPARATE_ENTRIES = { ...OTEL_ENTRY, ...BRIDGE_ENTRIES };

/** `@hooklens/runtime` and its subpaths → their sources under `root`: the server, CLI and extension bundles build the runtime in from source. */
export function runtimeSourceAliases(root) {
  const aliases = {};
  for (const [entry, source] of Object.entries({ ...RUNTIME_ENTRIES, ...SEPARATE_ENTRIES })) {
    aliases[entry === "index" ? "@hooklens/runtime" : `@hooklens/runtime/${entry}`] = join(root, source);
  }
  return aliases;
}

/**
 * What bundles that contain the runtime require from node_modules instead of inlining: the SQLite
 * driver loads its .wasm from beside its own JS, and pg is an optional peer loaded only when a
 * PostgreSQL store opens (it optionally requires pg-native, never installed here).
 */
export const RUNTIME_EXTERNALS = ["node-sqlite3-wasm", "pg", "pg-native"];

/**
 * CJS: whatever an otel module imports from the rest of the runtime is loaded from `./index.cjs`
 * (one copy of the runtime's state), so those names must be exports of the main entry; the main
 * entry's dynamic import of otel loads `./otel.cjs`. The sources import the modules themselves
 * (never the barrel), so the layers stay visible in the source.
 */
function separateOtel(root) {
  const folders = Object.values(SEPARATE_ENTRIES).map((source) => join(root, source, "../"));
  const folderOf = (path) => folders.find((folder) => path.startsWith(folder));
  return {
    name: "separate-otel",
    setup(build) {
      build.onResolve({ filter: /^\.\.\// }, (args) => {
        const folder = folderOf(args.importer);
        return folder !== undefined && !join(args.resolveDir, args.path).startsWith(folder) ? { path: "./index.cjs", external: true } : undefined;
      });
      build.onResolve({ filter: /^\.\.\/\.\.\/otel\/index\.js$/ }, (args) => (args.importer.startsWith(join(root, "runtime/src/session/")) ? { path: "./otel.cjs", external: true } : undefined));
    },
  };
}

/**
 * Builds the runtime into `outdir` (relative to `root`). Every subpath shares one copy of the
 * runtime, so module state (the default store, the signal settings, the pipeline) and classes
 * (`instanceof`) are the same whichever subpath a program imports them from: ESM through shared
 * chunks, CJS through subpath files that re-export from `index.cjs`. keepNames: class names
 * survive bundling (`error.name`, stack traces), although nothing persisted depends on them.
 */
export async function buildRuntimeBundles(root, outdir) {
  const manifest = require(join(root, "runtime/package.json"));
  const external = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
  // The published runtime carries no source maps: they would point at src/, which it does not ship.
  const common = { bundle: true, platform: "node", target: "node20", keepNames: true, logLevel: "warning", absWorkingDir: root, external, sourcemap: false };
  const esm = await esbuild.build({
    ...common,
    entryPoints: { ...RUNTIME_ENTRIES, ...SEPARATE_ENTRIES, ...REGISTER_ENTRY },
    outdir,
    format: "esm",
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    metafile: true,
  });
  await esbuild.build({ ...common, entryPoints: { index: RUNTIME_ENTRIES.index, ...SEPARATE_ENTRIES }, outdir, format: "cjs", outExtension: { ".js": ".cjs" }, plugins: [separateOtel(root)] });
  await Promise.all(
    Object.keys(RUNTIME_ENTRIES)
      .filter((entry) => entry !== "index")
      .map((entry) => {
        const names = esm.metafile.outputs[`${outdir}/${entry}.js`]?.exports;
        if (!names) throw new Error(`the ESM build has no ${outdir}/${entry}.js`);
        return esbuild.build({
          ...common,
          stdin: { contents: `export { ${names.join(", ")} } from "./index.cjs";`, resolveDir: join(root, outdir), loader: "js" },
          external: [...external, "./index.cjs"],
          outfile: `${outdir}/${entry}.cjs`,
          format: "cjs",
        });
      }),
  );
  // CJS: the preload calls the one observeAiSdk of index.cjs (a copy would have its own pipeline).
  await esbuild.build({
    ...common,
    stdin: { contents: `require("./index.cjs").observeAiSdk();`, resolveDir: join(root, outdir), loader: "js" },
    external: [...external, "./index.cjs"],
    outfile: `${outdir}/ai-sdk-register.cjs`,
    format: "cjs",
  });
}
