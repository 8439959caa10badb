import { describe, expect, it } from "vitest";
import { readTokenUsage, ScriptedEndpoint } from "@hooklens/runtime";
import { abortError, collect, drain } from "./support.js";

const ask = { messages: [{ role: "system", content: "be brief" }, { role: "user", content: "say hi" }] };
const contentOf = (response: unknown): string => (response as { choices: { message: { content: string } }[] }).choices[0]!.message.content;
const deltaOf = (chunk: unknown): string | undefined => (chunk as { choices: { delta: { content?: string } }[] }).choices[0]!.delta.content;

describe("ScriptedEndpoint", () => {
  it("echoes the last user message by default, as an OpenAI-shaped completion with word-count usage", async () => {
    const endpoint = new ScriptedEndpoint();
    const response = await endpoint.call({ request: ask });
    expect(response).toMatchObject({ id: "scripted-0", object: "chat.completion", model: "scripted-model" });
    expect(contentOf(response)).toBe("Echo: say hi");
    expect(readTokenUsage(response)).toEqual({ promptTokens: 4, completionTokens: 3, totalTokens: 7 });
  });

  it("replies with its script in order, repeating the last turn", async () => {
    const endpoint = new ScriptedEndpoint({ script: ["first", "second"] });
    const replies = [];
    for (let i = 0; i < 3; i++) replies.push(contentOf(await endpoint.call({ request: ask })));
    expect(replies).toEqual(["first", "second", "second"]);
    expect(endpoint.callCount).toBe(3);
  });

  it("computes turns from a script function of the payload and the call index", async () => {
    const endpoint = new ScriptedEndpoint({ script: (payload, index) => `${index}:${String(payload["model"])}` });
    expect(contentOf(await endpoint.call({ request: { ...ask, model: "m1" } }))).toBe("0:m1");
  });

  it("returns a scripted response object exactly", async () => {
    const response = { anything: true };
    expect(await new ScriptedEndpoint({ script: [{ response }] }).call({ request: ask })).toBe(response);
  });

  it("fails with a scripted error", async () => {
    const error = new Error("scripted failure");
    await expect(new ScriptedEndpoint({ script: [{ error }] }).call({ request: ask })).rejects.toBe(error);
  });

  it("streams one chunk per word and a final chunk with finish_reason and usage", async () => {
    const chunks = await collect(new ScriptedEndpoint({ script: ["hello big world"] }).stream({ request: ask }));
    expect(chunks.slice(0, 3).map(deltaOf)).toEqual(["hello ", "big ", "world"]);
    expect(chunks[3]).toMatchObject({ choices: [{ finish_reason: "stop" }] });
    expect(readTokenUsage(chunks[3])).toEqual({ promptTokens: 4, completionTokens: 3, totalTokens: 7 });
  });

  it("streams scripted chunks exactly and fails after failAfterChunks of them", async () => {
    const error = new Error("cut");
    const endpoint = new ScriptedEndpoint({ script: [{ chunks: ["a", "b", "c"], error, failAfterChunks: 2 }] });
    expect(await drain(endpoint.stream({ request: ask }))).toEqual({ received: ["a", "b"], error });
  });

  it("gives the same replies to the same script every time", async () => {
    const run = async (): Promise<unknown[]> => collect(new ScriptedEndpoint({ script: ["same words"] }).stream({ request: ask }));
    expect(await run()).toEqual(await run());
  });

  it("records the latest payload and fills in its model", async () => {
    const endpoint = new ScriptedEndpoint({ model: "tiny" });
    await endpoint.call({ request: ask });
    expect(endpoint.lastPayload).toEqual({ model: "tiny", ...ask });
  });

  it("waits latencyMs before replying, and an abort cuts the wait short", async () => {
    const endpoint = new ScriptedEndpoint({ latencyMs: 60_000 });
    const controller = new AbortController();
    const pending = endpoint.call({ request: ask, signal: controller.signal });
    controller.abort(abortError("no time"));
    await expect(pending).rejects.toThrow("no time");
  });
});

describe("readTokenUsage", () => {
  it("reads input/output token names too, summing when no total is given", () => {
    expect(readTokenUsage({ usage: { input_tokens: 5, output_tokens: 2 } })).toEqual({ promptTokens: 5, completionTokens: 2, totalTokens: 7 });
  });

  it("is null when nothing reports usage, never zero", () => {
    expect(readTokenUsage({ choices: [] })).toBeNull();
    expect(readTokenUsage({ usage: null })).toBeNull();
    expect(readTokenUsage({ usage: {} })).toBeNull();
    expect(readTokenUsage("text")).toBeNull();
  });
});
