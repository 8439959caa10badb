import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { WorkDoneProgress, WorkDoneProgressCreateRequest } from "vscode-languageserver-protocol/node";
import { serveFixture } from "../../helpers/lspClient.js";

// A client that shows server-initiated progress, as VS Code does.
const served = serveFixture({ capabilities: { window: { workDoneProgress: true }, textDocument: { diagnostic: { dynamicRegistration: false } } } });
const AGENT = 'import { HookBus, HookPoint } from "@hooklens/runtime";\nnew HookBus().on(HookPoint.API_PRE_CALL, () => undefined);\n';

describe("progress while the first program loads", { timeout: 180_000 }, () => {
  it("is shown (begin, then end) around the first analysis of a runtime-using file, and not for the next edit", async () => {
    const { client, fixture } = served;
    const created: unknown[] = [];
    const kinds: string[] = [];
    client.connection.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
      created.push(token);
      // Registered before the answer leaves, so the begin that follows it is seen.
      client.connection.onProgress(WorkDoneProgress.type, token, (value) => void kinds.push(value.kind));
    });
    const path = fixture.write("agent.ts", AGENT);
    const uri = pathToFileURL(path).href;
    await client.open(uri, AGENT);
    expect((await client.pullItems(uri)).map((d) => d.code)).toEqual(["HL001"]);
    expect(created).toHaveLength(1);
    expect(kinds).toEqual(["begin", "end"]);

    await client.change(uri, 2, `${AGENT}// edited\n`);
    expect((await client.pullItems(uri)).map((d) => d.code)).toEqual(["HL001"]);
    expect(created).toHaveLength(1);
    expect(kinds).toEqual(["begin", "end"]);
  });
});
