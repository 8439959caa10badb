import { describe, expect, it } from "vitest";
import { APICalling, EventStatus, IModel, type Endpoint, type EndpointCallOptions, type EndpointPayload } from "@hooklens/runtime";
import { collect } from "./support.js";

/** An endpoint that records what APICalling hands it. */
class RecordingEndpoint implements Endpoint {
  readonly name = "recording";
  readonly calls: EndpointCallOptions[] = [];
  createPayload(request: EndpointPayload) {
    return { payload: { ...request, built: true }, headers: { "x-trace": "t1" } };
  }
  async call(options: EndpointCallOptions): Promise<unknown> {
    this.calls.push(options);
    return { usage: { prompt_tokens: 1, completion_tokens: 2 } };
  }
  async *stream(options: EndpointCallOptions): AsyncGenerator<unknown> {
    this.calls.push(options);
    yield { n: 1 };
    yield { n: 2, usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7 } };
  }
}

describe("APICalling", () => {
  it("is a streaming event exactly when its payload says stream: true", () => {
    const endpoint = new RecordingEndpoint();
    expect(new APICalling({ endpoint, payload: { stream: true } }).streaming).toBe(true);
    expect(new APICalling({ endpoint, payload: { stream: "yes" } }).streaming).toBe(false);
  });

  it("calls its endpoint with the finished payload, its headers, cacheControl, call options and the signal", async () => {
    const endpoint = new RecordingEndpoint();
    const controller = new AbortController();
    const call = new APICalling({ endpoint, payload: { a: 1 }, headers: { "x-trace": "t1" }, cacheControl: true, callOptions: { region: "eu" } });
    await call.invoke({ signal: controller.signal });
    expect(endpoint.calls[0]).toEqual({ region: "eu", request: { a: 1 }, cacheControl: true, skipPayloadCreation: true, extraHeaders: { "x-trace": "t1" }, signal: controller.signal });
  });

  it("passes no extra headers when it has none", async () => {
    const endpoint = new RecordingEndpoint();
    await new APICalling({ endpoint, payload: {} }).invoke();
    expect(endpoint.calls[0]!.extraHeaders).toBeNull();
  });

  it("reports the usage of its response, summing a missing total", async () => {
    const call = new APICalling({ endpoint: new RecordingEndpoint(), payload: {} });
    expect(call.usage).toBeNull();
    await call.invoke();
    expect(call.usage).toEqual({ promptTokens: 1, completionTokens: 2, totalTokens: 3 });
  });

  it("reports the usage carried by a stream chunk", async () => {
    const call = new APICalling({ endpoint: new RecordingEndpoint(), payload: { stream: true } });
    expect(await collect(call.stream())).toHaveLength(2);
    expect(call.status).toBe(EventStatus.COMPLETED);
    expect(call.usage).toEqual({ promptTokens: 3, completionTokens: 4, totalTokens: 7 });
  });

  it("exposes { requiredTokens } as its request, null for endpoints that need no count", () => {
    const call = new APICalling({ endpoint: new RecordingEndpoint(), payload: { a: 1 } });
    expect(call.request).toEqual({ requiredTokens: null });
  });

  it("is built by IModel through endpoint.createPayload, keeping the endpoint's headers", async () => {
    const call = await new IModel({ endpoint: new RecordingEndpoint() }).createEvent({ prompt: "x", cacheControl: true, callOptions: { region: "us" } });
    expect(call.payload).toEqual({ prompt: "x", built: true });
    expect(call.headers).toEqual({ "x-trace": "t1" });
    expect([call.cacheControl, call.callOptions]).toEqual([true, { region: "us" }]);
  });

  it("snapshots its payload and usage in toDict", async () => {
    const call = new APICalling({ endpoint: new RecordingEndpoint(), payload: { a: 1 } });
    await call.invoke();
    expect(call.toDict()).toMatchObject({ lionClass: "APICalling", status: "completed", payload: { a: 1 }, usage: { totalTokens: 3 } });
  });
});
