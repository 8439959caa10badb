// The API key must never reach an error, a log line, a hook or a session signal.
import { inspect } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { globalHookLog, HookRegistry, IModel, OpenAIChatEndpoint, Signal, sanitizeSignalPayload, toJsonSafe } from "@hooklens/runtime";
import { openEventStream, sendJson, startServer, type TestServer } from "./httpServer.js";
import { captureLogs, collect } from "./support.js";

const KEY = "sk-secret-9f8e7d6c5b4a39281706";
const ask = { messages: [{ role: "user", content: "hi" }] };

let server: TestServer | null = null;
beforeEach(() => globalHookLog.clear());
afterEach(async () => {
  globalHookLog.clear();
  await server?.close();
  server = null;
});

/** Every way the value could be shown: message, inspect (with causes), JSON. */
function renderings(value: unknown): string {
  let json = "";
  try {
    json = JSON.stringify(value) ?? "";
  } catch {
    json = "";
  }
  return [String(value), inspect(value, { depth: 8, showHidden: true }), json, JSON.stringify(toJsonSafe(value))].join("\n");
}

/** A server that echoes the Authorization header back in whatever it answers. */
async function echoingServer(mode: "401" | "malformed" | "stream-error"): Promise<OpenAIChatEndpoint> {
  server = await startServer((req, res) => {
    const echoed = String(req.headers["authorization"]);
    if (mode === "401") sendJson(res, 401, { error: { message: `Incorrect API key provided: ${echoed}` } });
    else if (mode === "malformed") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`{"seen": "${echoed}"`);
    } else {
      openEventStream(res)(JSON.stringify({ error: { message: `bad key ${echoed.replace("Bearer ", "")}` } }));
      res.end();
    }
  });
  return new OpenAIChatEndpoint({ baseUrl: server.baseUrl, apiKey: KEY });
}

describe("API key secrecy", () => {
  it("the key is sent to the server (so the checks below are meaningful)", async () => {
    const endpoint = await echoingServer("401");
    await endpoint.call({ request: ask }).catch(() => null);
    expect(server!.requests[0]!.headers["authorization"]).toBe(`Bearer ${KEY}`);
  });

  it("never appears in an HTTP error, even when the server echoes it", async () => {
    const endpoint = await echoingServer("401");
    const error = await endpoint.call({ request: ask }).catch((e: unknown) => e);
    expect(renderings(error)).not.toContain(KEY);
    expect(renderings(error)).toContain("[redacted]");
  });

  it("never appears in a malformed-JSON error that quotes the body", async () => {
    const endpoint = await echoingServer("malformed");
    const error = await endpoint.call({ request: ask }).catch((e: unknown) => e);
    expect(renderings(error)).not.toContain(KEY);
  });

  it("never appears in a stream error", async () => {
    const endpoint = await echoingServer("stream-error");
    const error = await collect(endpoint.stream({ request: ask })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(renderings(error)).not.toContain(KEY);
  });

  it("is not readable from the endpoint: not in JSON, inspect or its own keys", () => {
    const endpoint = new OpenAIChatEndpoint({ apiKey: KEY });
    expect(renderings(endpoint)).not.toContain(KEY);
    expect(endpoint.hasApiKey).toBe(true);
  });

  it("never reaches hook handlers, the hook log, logs or session signals during a failing call", async () => {
    const endpoint = await echoingServer("401");
    const handed: unknown[] = [];
    const hookRegistry = new HookRegistry({
      hooks: {
        pre_event_create: (cls, params) => void handed.push(cls, params),
        pre_invoke: (event, params) => void handed.push(event, params),
        post_invoke: (event) => {
          handed.push(event);
          throw new Error("post hook complains");
        },
      },
    });
    const model = new IModel({ endpoint, hookRegistry });
    const { call, logs } = await captureLogs(async (logs) => ({ call: await model.invoke(ask), logs }));
    const signal = new Signal({ data: call });
    const everything = [
      renderings(call),
      renderings(call.toDict()),
      renderings(call.execution.error),
      renderings(handed),
      renderings(globalHookLog.entries()),
      renderings(logs),
      JSON.stringify(sanitizeSignalPayload(signal)),
    ].join("\n");
    expect(call.status).toBe("failed");
    expect(everything).not.toContain(KEY);
  });
});
