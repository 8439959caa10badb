import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  InitializeRequest,
  LogMessageNotification,
  StreamMessageReader,
  StreamMessageWriter,
  createProtocolConnection,
} from "vscode-languageserver-protocol/node";
import { SERVER_NODE_FLAGS } from "../../../server/src/launchOptions.js";
import { builtCli } from "../../helpers/builtCli.js";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";

// zod's translated messages are left out of the analyzer's bundles (scripts/zodLocalesOut.mjs); English stays.
const BUNDLES = ["dist/server-main.cjs", "server/dist/check.cjs"].map((file) => join(REPO_ROOT, file));

let scratch: string;
beforeAll(() => {
  builtCli(); // the same build writes dist/ and server/dist/
  scratch = mkdtempSync(join(tmpdir(), "hooklens-zod-locales-"));
}, 300_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("zod's locales in the analyzer's bundles", { timeout: 300_000 }, () => {
  it("are left out, all but English", () => {
    for (const bundle of BUNDLES) {
      const { sources } = JSON.parse(readFileSync(`${bundle}.map`, "utf8")) as { sources: string[] };
      expect(sources.filter((source) => source.includes("/zod/v4/locales/")), bundle).toEqual([expect.stringMatching(/\/zod\/v4\/locales\/en\.js$/)]);
    }
  });

  it("leave the built server's English messages for a wrong setting", async () => {
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, join(REPO_ROOT, "dist/server.js"), "--stdio"], { cwd: scratch, stdio: ["pipe", "pipe", "pipe"] });
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const logged: string[] = [];
    connection.onNotification(LogMessageNotification.type, ({ message }) => void logged.push(message));
    connection.onRequest("workspace/configuration", () => [null]);
    connection.listen();
    try {
      const file = join(scratch, "agent.ts");
      writeFileSync(file, "export const x = 1;\n");
      await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: pathToFileURL(scratch).href, capabilities: {}, initializationOptions: { hooklens: { enable: "yes" } } });
      await connection.sendNotification("initialized", {});
      await connection.sendNotification("textDocument/didOpen", { textDocument: { uri: pathToFileURL(file).href, languageId: "typescript", version: 1, text: "export const x = 1;\n" } });
      const deadline = Date.now() + 120_000;
      while (!logged.some((line) => line.includes("hooklens.enable")) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(logged.find((line) => line.includes("hooklens.enable"))).toMatch(/ignored setting hooklens\.enable: "enable": Invalid input: expected boolean, received string/);
    } finally {
      connection.dispose();
      child.kill();
    }
  });
});
