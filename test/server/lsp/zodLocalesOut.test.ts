import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { builtCli } from "../../helpers/builtCli.js";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";
import { LspClient } from "../../helpers/lspClient.js";
import { testTempDir } from "../../helpers/tempDir.js";

// zod's translated messages are left out of the analyzer's bundles (scripts/zodLocalesOut.mjs); English stays.
const BUNDLES = ["dist/server-main.cjs", "server/dist/check.cjs"].map((file) => join(REPO_ROOT, file));

beforeAll(() => {
  builtCli(); // the same build writes dist/ and server/dist/
}, 300_000);

describe("zod's locales in the analyzer's bundles", { timeout: 300_000 }, () => {
  it("are left out, all but English", () => {
    for (const bundle of BUNDLES) {
      const { sources } = JSON.parse(readFileSync(`${bundle}.map`, "utf8")) as { sources: string[] };
      expect(sources.filter((source) => source.includes("/zod/v4/locales/")), bundle).toEqual([expect.stringMatching(/\/zod\/v4\/locales\/en\.js$/)]);
    }
  });

  it("leave the built server's English messages for a wrong setting", async () => {
    const rootDir = testTempDir("hooklens-zod-locales-");
    const { client } = await LspClient.start({ rootDir, server: join(REPO_ROOT, "dist/server.js"), initializationOptions: { hooklens: { enable: "yes" } } });
    try {
      writeFileSync(join(rootDir, "agent.ts"), "export const x = 1;\n");
      await client.open(pathToFileURL(join(rootDir, "agent.ts")).href, "export const x = 1;\n");
      const line = await client.waitFor(() => client.logs.find((message) => message.includes("hooklens.enable")), "the ignored setting's log line");
      expect(line).toMatch(/ignored setting hooklens\.enable: "enable": Invalid input: expected boolean, received string/);
    } finally {
      await client.stop();
    }
  });
});
