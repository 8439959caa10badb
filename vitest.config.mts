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
    include: ["test/{runtime,server,client,examples}/**/*.test.ts"],
    testTimeout: 20_000,
    pool: "forks",
  },
});
