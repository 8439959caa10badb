import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * The runtime's suites that also run against its bundles (ESM and CJS), where a bundler can break
 * what sources cannot: class names and signal kinds, `instanceof` across subpaths, the exported
 * names, module state shared by every subpath. Every scope is represented; suites that reach into
 * runtime/src directly, or spawn programs that do, stay source-only.
 */
const DIST_SUITES = [
  "test/runtime/publicApiInputs.test.ts",
  "test/runtime/package/subpaths.test.ts",
  "test/runtime/session/{signal,signalPath,deniedCalls,definitionSites,observerEmit,observerPersistence,hookBus,branch,session,serialize}.test.ts",
  "test/runtime/service/{hookRegistry,hookedEvent,event,apiCalling}.test.ts",
  "test/runtime/tool/{act,actRecords,factory,tool,functionCalling,chains}.test.ts",
  "test/runtime/middleware/{dispatch,guardrail,budget,scopes}.test.ts",
  "test/runtime/store/{sqliteSignalStore,sqliteErrors,postgresSignalStore,postgresOutage,hotJournal}.test.ts",
  "test/runtime/live/recordedSignalFrame.test.ts",
  "test/runtime/otel/{spanTree,agentSpans}.test.ts",
];

/** `@hooklens/runtime` resolved to its sources. */
const SOURCE_ALIASES = {
  "@hooklens/runtime/live": here("./runtime/src/live/index.ts"),
  "@hooklens/runtime/store": here("./runtime/src/store/index.ts"),
  "@hooklens/runtime/otel": here("./runtime/src/otel/index.ts"),
  "@hooklens/runtime/ai-sdk": here("./runtime/src/ai-sdk/index.ts"),
  "@hooklens/runtime/claude-agent-sdk": here("./runtime/src/claude-agent-sdk/index.ts"),
  "@hooklens/runtime/openai-agents": here("./runtime/src/openai-agents/index.ts"),
  "@hooklens/runtime": here("./runtime/src/index.ts"),
};

/**
 * The analyzer's in-process suites: they build ts-morph projects and nothing else (no child
 * processes, servers or global state), so they can share a worker's module graph.
 */
const ANALYZER_SUITES = [
  "test/server/hl0*.test.ts",
  "test/server/{aliasRenames,analysisLib,analysisNotices,analyzeIsolation,analyzerCost,benchWorkspace,bufferParses,fileIndex,incrementalReparse,leftOutDeclarations,libraryParses,neutralEdits,packageJsonCache,ruleCatalogue,ruleDocsExamples,runtimeResolver,soleBinding,syntacticRuntime,valueKinds,importedDeclarations,importedRules,findingsElsewhere,packageMembers,referenceLists}.test.ts",
  "test/client/scaffold/{imports,templates}.test.ts",
];

/** A project running {@link DIST_SUITES} with `@hooklens/runtime` resolved to the built `extension` files. */
function distProject(name: string, extension: "js" | "cjs"): TestProjectInlineConfiguration {
  const built = (entry: string) => here(`./.cache/test-dist/runtime/${entry}.${extension}`);
  return {
    extends: true,
    resolve: {
      alias: {
        "@hooklens/runtime/live": built("live"),
        "@hooklens/runtime/store": built("store"),
        "@hooklens/runtime/otel": built("otel"),
        "@hooklens/runtime/ai-sdk": built("ai-sdk"),
        "@hooklens/runtime/claude-agent-sdk": built("claude-agent-sdk"),
        "@hooklens/runtime/openai-agents": built("openai-agents"),
        "@hooklens/runtime": built("index"),
      },
    },
    test: {
      name,
      include: DIST_SUITES,
      // test/runtime/package/subpaths.test.ts checks it really got the bundles.
      env: { HOOKLENS_TEST_RUNTIME: name },
      // Added to the root globalSetup (arrays merge): builds the bundles when a source changed.
      globalSetup: ["test/setup/runtimeDist.ts"],
      // Loaded by Node itself, as a user's program loads the package, not transformed by Vite.
      server: { deps: { external: [/\/\.cache\/test-dist\/runtime\//] } },
    },
  };
}

export default defineConfig({
  test: {
    // Bundles the server and CLI once for every protocol and CLI test.
    globalSetup: ["test/setup/globalSetup.ts"],
    // The JSON report is what .ci/run counts passed and failed tests from.
    reporters: ["default", "./test/reporters/slowestTests.ts", "json"],
    outputFile: { json: ".cache/vitest.json" },
    // Limits catch hangs, not slowness: a 2-core machine shared with other work can take many
    // times longer than an idle one, and a test must not fail for that.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: "forks",
    // Vitest's default is one worker per core but one, which is a single worker on 2 cores. Most
    // suites spend their time waiting on child processes, servers and sockets, so two files at a
    // time keep both cores working (every limit above is sized for a loaded machine).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    env: {
      // Tests never record into the project's own .hooklens/signals.db (the demo's recording):
      // the default database points at a file that does not exist, so nothing is written.
      HOOKLENS_DB: here("./.cache/tests-record-nothing.db"),
    },
    projects: [
      {
        extends: true,
        resolve: { alias: SOURCE_ALIASES },
        test: { name: "source", include: ["test/{runtime,server,client,examples,package}/**/*.test.ts"], exclude: [...configDefaults.exclude, ...ANALYZER_SUITES] },
      },
      {
        extends: true,
        resolve: { alias: SOURCE_ALIASES },
        // A worker runs these files one after another in one module graph, so TypeScript is loaded
        // and the runtime's types are checked once per worker, not once per file (their fixture
        // projects are shared: test/helpers/analyzeFixture.ts).
        test: { name: "analyzer", include: ANALYZER_SUITES, isolate: false },
      },
      distProject("dist-esm", "js"),
      distProject("dist-cjs", "cjs"),
    ],
  },
});
