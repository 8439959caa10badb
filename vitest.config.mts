import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      "@hooklens/runtime/live": here("./runtime/src/live/index.ts"),
      "@hooklens/runtime/store": here("./runtime/src/store/index.ts"),
      "@hooklens/runtime": here("./runtime/src/index.ts"),
    },
  },
  test: {
    include: ["test/{runtime,server,client,examples,package}/**/*.test.ts"],
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
    env: {
      // Tests never record into the project's own .hooklens/signals.db (the demo's recording):
      // the default database points at a file that does not exist, so nothing is written.
      HOOKLENS_DB: here("./.cache/tests-record-nothing.db"),
    },
  },
});
