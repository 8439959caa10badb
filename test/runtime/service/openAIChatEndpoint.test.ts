import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import {
  EndpointConnectionError,
  EndpointHttpError,
  EndpointResponseError,
  EndpointStreamError,
  EndpointTimeoutError,
  EventStatus,
  IModel,
  OpenAIChatEndpoint,
} from "@hooklens/runtime";
import { delay, openEventStream, sendJson, startServer, textChunk, type Route, type TestServer } from "./httpServer.js";
import { collect, drain } from "./support.js";

const KEY = "sk-test-0123456789abcdef";
const ask = { messages: [{ role: "user", content: "hi" }] };
const completion = {
  id: "chatcmpl-1",
  object: "chat.completion",
  choices: [{ index: 0, message: { role: "assistant", content: "hello" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 },
};

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(route: Route, options: { apiKey?: string | null; timeoutMs?: number; model?: string } = {}): Promise<OpenAIChatEndpoint> {
  server = await startServer(route);
  return new OpenAIChatEndpoint({
    baseUrl: server.baseUrl,
    apiKey: options.apiKey === undefined ? KEY : options.apiKey,
    apiKeyEnv: "HOOKLENS_TEST_UNSET_KEY",
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(options.model !== undefined && { model: options.model }),
  });
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error(`expected a rejection, got ${String(error)}`);
  return error;
}

describe("OpenAIChatEndpoint.call", () => {
  it("posts the payload as JSON to <baseUrl>/chat/completions with a bearer key and returns the parsed body", async () => {
    const endpoint = await serve((_req, res) => sendJson(res, 200, completion));
    const response = await endpoint.call({ request: { model: "gpt-test", ...ask } });
    expect(response).toEqual(completion);
    const [req] = server!.requests;
    expect(req!.method).toBe("POST");
    expect(req!.url).toBe("/v1/chat/completions");
    expect(req!.headers["content-type"]).toBe("application/json");
    expect(req!.headers["authorization"]).toBe(`Bearer ${KEY}`);
    expect(req!.json).toEqual({ model: "gpt-test", ...ask });
  });

  it("fills in its default model when the request names none", async () => {
    const endpoint = await serve((_req, res) => sendJson(res, 200, completion), { model: "default-model" });
    await endpoint.call({ request: ask });
    expect(server!.requests[0]!.json).toMatchObject({ model: "default-model" });
  });

  it("reads the key from the environment variable when no apiKey option is given", async () => {
    server = await startServer((_req, res) => sendJson(res, 200, completion));
    process.env["HOOKLENS_TEST_ENV_KEY"] = "sk-from-env-1234";
    try {
      const endpoint = new OpenAIChatEndpoint({ baseUrl: server.baseUrl, apiKeyEnv: "HOOKLENS_TEST_ENV_KEY" });
      await endpoint.call({ request: ask });
      expect(server.requests[0]!.headers["authorization"]).toBe("Bearer sk-from-env-1234");
    } finally {
      delete process.env["HOOKLENS_TEST_ENV_KEY"];
    }
  });

  it("sends no Authorization header without a key, and says so on a 401", async () => {
    const endpoint = await serve((_req, res) => sendJson(res, 401, { error: { message: "Missing key" } }), { apiKey: null });
    const error = await failure(endpoint.call({ request: ask }));
    expect(server!.requests[0]!.headers["authorization"]).toBeUndefined();
    expect(error.message).toContain("no API key configured: pass apiKey or set $HOOKLENS_TEST_UNSET_KEY");
  });

  it("reads token usage from the response", async () => {
    const endpoint = await serve((_req, res) => sendJson(res, 200, completion));
    expect(endpoint.readUsage(await endpoint.call({ request: ask }))).toEqual({ promptTokens: 9, completionTokens: 1, totalTokens: 10 });
  });

  it("turns a 4xx into EndpointHttpError with the status and the server's message, not retryable", async () => {
    const endpoint = await serve((_req, res) => sendJson(res, 400, { error: { message: "messages is required", type: "invalid_request_error" } }));
    const error = await failure(endpoint.call({ request: ask }));
    expect(error).toBeInstanceOf(EndpointHttpError);
    expect((error as EndpointHttpError).status).toBe(400);
    expect((error as EndpointHttpError).retryable).toBe(false);
    expect(error.message).toContain("400 Bad Request: messages is required");
  });

  it("marks 429 and 5xx as retryable", async () => {
    let status = 429;
    const endpoint = await serve((_req, res) => sendJson(res, status, { error: "busy" }));
    const limited = await failure(endpoint.call({ request: ask }));
    status = 503;
    const down = await failure(endpoint.call({ request: ask }));
    expect([(limited as EndpointHttpError).status, (limited as EndpointHttpError).retryable]).toEqual([429, true]);
    expect([(down as EndpointHttpError).status, (down as EndpointHttpError).retryable]).toEqual([503, true]);
  });

  it("quotes a non-JSON error body", async () => {
    const endpoint = await serve((_req, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<h1>Bad gateway</h1>");
    });
    const error = await failure(endpoint.call({ request: ask }));
    expect(error.message).toContain("502 Bad Gateway: <h1>Bad gateway</h1>");
  });

  it("turns a 200 with malformed JSON into EndpointResponseError", async () => {
    const endpoint = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"choices": [');
    });
    const error = await failure(endpoint.call({ request: ask }));
    expect(error).toBeInstanceOf(EndpointResponseError);
    expect(error.message).toContain('malformed JSON: {"choices": [');
  });

  it("gives up on a slow response after timeoutMs with EndpointTimeoutError", async () => {
    const endpoint = await serve(async (_req, res) => {
      await delay(2_000);
      sendJson(res, 200, completion);
    }, { timeoutMs: 50 });
    const error = await failure(endpoint.call({ request: ask }));
    expect(error).toBeInstanceOf(EndpointTimeoutError);
    expect(error.message).toContain("did not finish within 50 ms");
  });

  it("rejects with the caller's abort reason (a cancellation, not an EndpointError) and drops the connection", async () => {
    let arrived: () => void = () => {};
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const endpoint = await serve(async (_req, res) => {
      arrived();
      await delay(5_000);
      sendJson(res, 200, completion);
    });
    const controller = new AbortController();
    const pending = endpoint.call({ request: ask, signal: controller.signal });
    // Abort once the server holds the request: a fixed pause could fire before a loaded machine
    // even connected, and then no connection would ever be dropped.
    await requestArrived;
    controller.abort();
    const error = await failure(pending);
    expect(error.name).toBe("AbortError");
    await server!.clientClosed;
  });

  it("turns a connection the server cuts mid-body into EndpointConnectionError", async () => {
    const endpoint = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"partial": ');
      setTimeout(() => res.destroy(), 20);
    });
    const error = await failure(endpoint.call({ request: ask }));
    expect(error).toBeInstanceOf(EndpointConnectionError);
    expect((error as EndpointConnectionError).retryable).toBe(true);
  });

  it("turns a refused connection into EndpointConnectionError", async () => {
    const closed = await startServer(() => {});
    const baseUrl = closed.baseUrl;
    await closed.close();
    const endpoint = new OpenAIChatEndpoint({ baseUrl, apiKey: KEY });
    const error = await failure(endpoint.call({ request: ask }));
    expect(error).toBeInstanceOf(EndpointConnectionError);
    expect(error.message).toMatch(/ECONNREFUSED/);
  });
});

describe("OpenAIChatEndpoint.stream", () => {
  it("posts stream: true and yields every parsed data event until [DONE]", async () => {
    const endpoint = await serve((_req, res) => {
      const send = openEventStream(res);
      send(textChunk("Hel"));
      send(textChunk("lo"));
      send("[DONE]");
      send(textChunk("after done"));
      res.end();
    });
    const chunks = await collect(endpoint.stream({ request: ask }));
    expect(chunks.map((c) => (c as { choices: { delta: { content: string } }[] }).choices[0]!.delta.content)).toEqual(["Hel", "lo"]);
    expect(server!.requests[0]!.json).toMatchObject({ stream: true });
  });

  it("delivers chunks as they arrive, before the response ends", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const endpoint = await serve(async (_req, res) => {
      const send = openEventStream(res);
      send(textChunk("first"));
      await gate;
      send("[DONE]");
      res.end();
    });
    const iterator = endpoint.stream({ request: ask })[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    release();
    expect((await iterator.next()).done).toBe(true);
  });

  it("reads the usage of the final chunk", async () => {
    const endpoint = await serve((_req, res) => {
      const send = openEventStream(res);
      send(textChunk("x"));
      send(JSON.stringify({ object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } }));
      send("[DONE]");
      res.end();
    });
    const chunks = await collect(endpoint.stream({ request: { ...ask, stream_options: { include_usage: true } } }));
    expect(endpoint.readUsage(chunks.at(-1))).toEqual({ promptTokens: 3, completionTokens: 1, totalTokens: 4 });
  });

  it("turns an HTTP error before the stream into EndpointHttpError", async () => {
    const endpoint = await serve((_req, res) => sendJson(res, 404, { error: { message: "model not found" } }));
    const error = await failure(collect(endpoint.stream({ request: ask })));
    expect(error).toBeInstanceOf(EndpointHttpError);
    expect(error.message).toContain("404 Not Found: model not found");
  });

  it("turns a 200 that is not an event stream into EndpointResponseError", async () => {
    const endpoint = await serve((_req, res) => sendJson(res, 200, completion));
    const error = await failure(collect(endpoint.stream({ request: ask })));
    expect(error).toBeInstanceOf(EndpointResponseError);
    expect(error.message).toContain("instead of an event stream");
  });

  it("turns a data event that is not JSON into EndpointStreamError after the good chunks", async () => {
    const endpoint = await serve((_req, res) => {
      const send = openEventStream(res);
      send(textChunk("ok"));
      send("{not json");
      res.end();
    });
    const { received, error } = (await drain(endpoint.stream({ request: ask }))) as { received: unknown[]; error: Error };
    expect(received).toHaveLength(1);
    expect(error).toBeInstanceOf(EndpointStreamError);
    expect(error.message).toContain("not JSON: {not json");
  });

  it("turns an error the server reports mid-stream into EndpointStreamError", async () => {
    const endpoint = await serve((_req, res) => {
      const send = openEventStream(res);
      send(JSON.stringify({ error: { message: "overloaded" } }));
      res.end();
    });
    const error = await failure(collect(endpoint.stream({ request: ask })));
    expect(error).toBeInstanceOf(EndpointStreamError);
    expect(error.message).toContain("reported an error mid-stream: overloaded");
  });

  it("turns a connection cut mid-stream into EndpointStreamError, after the chunks already sent", async () => {
    const endpoint = await serve((_req, res) => {
      const send = openEventStream(res);
      send(textChunk("one"));
      setTimeout(() => res.destroy(), 30);
    });
    const { received, error } = (await drain(endpoint.stream({ request: ask }))) as { received: unknown[]; error: Error };
    expect(received).toHaveLength(1);
    expect(error).toBeInstanceOf(EndpointStreamError);
    expect(error.message).toContain("broke off");
  });

  it("gives up on a stalled stream after timeoutMs with EndpointTimeoutError", async () => {
    const endpoint = await serve((_req, res) => {
      openEventStream(res)(textChunk("one"));
    }, { timeoutMs: 100 });
    const error = await failure(collect(endpoint.stream({ request: ask })));
    expect(error).toBeInstanceOf(EndpointTimeoutError);
  });

  it("stops on the caller's abort with the abort reason and closes the connection", async () => {
    const endpoint = await serve((_req, res) => {
      openEventStream(res)(textChunk("one"));
    });
    const controller = new AbortController();
    const error = await failure(
      (async () => {
        for await (const _chunk of endpoint.stream({ request: ask, signal: controller.signal })) controller.abort();
      })(),
    );
    expect(error.name).toBe("AbortError");
    await server!.clientClosed;
  });

  it("closes the connection when the consumer stops reading early", async () => {
    const endpoint = await serve((_req, res) => {
      const send = openEventStream(res);
      send(textChunk("one"));
      send(textChunk("two"));
    });
    for await (const _chunk of endpoint.stream({ request: ask })) break;
    await server!.clientClosed;
  });
});

describe("OpenAIChatEndpoint and a long-lived caller signal", () => {
  it("leaves no listener on the caller's signal after calls and streams", async () => {
    const endpoint = await serve((req, res) => {
      if ((req.json as { stream?: boolean }).stream) {
        const send = openEventStream(res);
        send(textChunk("x"));
        send("[DONE]");
        res.end();
      } else sendJson(res, 200, completion);
    });
    const controller = new AbortController();
    for (let i = 0; i < 5; i++) {
      await endpoint.call({ request: ask, signal: controller.signal });
      await collect(endpoint.stream({ request: ask, signal: controller.signal }));
    }
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});

describe("OpenAIChatEndpoint under an IModel", () => {
  it("an invoke resolves with the parsed response and its usage", async () => {
    const endpoint = await serve((_req, res) => sendJson(res, 200, completion));
    const call = await new IModel({ endpoint }).invoke(ask);
    expect(call.status).toBe(EventStatus.COMPLETED);
    expect(call.response).toEqual(completion);
    expect(call.usage).toEqual({ promptTokens: 9, completionTokens: 1, totalTokens: 10 });
  });

  it("an HTTP failure is the APICalling's FAILED status with the EndpointHttpError", async () => {
    const endpoint = await serve((_req, res) => sendJson(res, 500, { error: { message: "boom" } }));
    const call = await new IModel({ endpoint }).invoke(ask);
    expect(call.status).toBe(EventStatus.FAILED);
    expect(call.execution.error).toBeInstanceOf(EndpointHttpError);
  });

  it("streams through a per-chunk handler over real SSE", async () => {
    const endpoint = await serve((_req, res) => {
      const send = openEventStream(res);
      send(textChunk("a"));
      send(textChunk("b"));
      send("[DONE]");
      res.end();
    });
    const m = new IModel({
      endpoint,
      hookRegistry: { streamHandlers: { Object: (_e, _t, chunk) => (chunk as { choices: { delta: { content: string } }[] }).choices[0]!.delta.content } },
    });
    expect(await collect(m.stream(ask))).toEqual(["a", "b"]);
  });
});
