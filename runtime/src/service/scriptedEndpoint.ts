import { describeValue, optionsObject, requireName } from "../shared/arguments.js";
import { InvalidValueError } from "../shared/errors.js";
import { abortReason, sleep } from "./cancellation.js";
import type { Endpoint, EndpointCallOptions, EndpointPayload, EndpointRequest } from "./endpoint.js";
import { readTokenUsage, type TokenUsage } from "./tokenUsage.js";

/**
 * One scripted turn. A string is the assistant's text. An object may give the text, the exact
 * `response` object `call` returns, the exact `chunks` `stream` yields, an `error` to fail with
 * (after `failAfterChunks` chunks when streaming), and its own `latencyMs`.
 */
export type ScriptedTurn =
  | string
  | {
      text?: string;
      response?: unknown;
      chunks?: readonly unknown[];
      error?: Error;
      failAfterChunks?: number;
      latencyMs?: number;
    };

export interface ScriptedEndpointOptions {
  /** Turns in order (the last one repeats), or a function of the payload and the call index. Default: echo the last user message. */
  script?: readonly ScriptedTurn[] | ((payload: EndpointPayload, index: number) => ScriptedTurn);
  /** Milliseconds before a reply and between chunks (abortable). Default 0: no timers at all. */
  latencyMs?: number;
  model?: string;
  name?: string;
}

/**
 * An offline endpoint with deterministic replies, shaped like OpenAI chat completions: `call`
 * returns a `chat.completion` with usage, `stream` yields `chat.completion.chunk` objects one
 * word at a time and a last chunk with `finish_reason` and usage. Usage counts words.
 */
export class ScriptedEndpoint implements Endpoint {
  readonly name: string;
  readonly model: string;
  readonly latencyMs: number;
  #script: ScriptedEndpointOptions["script"];
  #calls = 0;
  #lastPayload: EndpointPayload | null = null;

  constructor(options: ScriptedEndpointOptions = {}) {
    const where = "new ScriptedEndpoint(options)";
    options = optionsObject(options, where);
    if (options.name !== undefined) requireName(options.name, where, "options.name");
    if (options.model !== undefined) requireName(options.model, where, "options.model");
    const { latencyMs, script } = options;
    if (latencyMs !== undefined && !(typeof latencyMs === "number" && latencyMs >= 0 && Number.isFinite(latencyMs))) {
      throw new InvalidValueError(`${where}: options.latencyMs must be a non-negative number, got ${describeValue(latencyMs)}`);
    }
    if (script !== undefined && !Array.isArray(script) && typeof script !== "function") {
      throw new InvalidValueError(`${where}: options.script must be an array of turns or a function (payload, index) => turn, got ${describeValue(script)}`);
    }
    this.name = options.name ?? "scripted";
    this.model = options.model ?? "scripted-model";
    this.latencyMs = options.latencyMs ?? 0;
    this.#script = options.script;
  }

  /** How many calls and streams have started. */
  get callCount(): number {
    return this.#calls;
  }

  /** The payload of the latest call or stream. */
  get lastPayload(): EndpointPayload | null {
    return this.#lastPayload;
  }

  createPayload(request: EndpointPayload): EndpointRequest {
    return { payload: request["model"] === undefined ? { model: this.model, ...request } : { ...request }, headers: {} };
  }

  readUsage(responseOrChunk: unknown): TokenUsage | null {
    return readTokenUsage(responseOrChunk);
  }

  async call(options: EndpointCallOptions): Promise<unknown> {
    const { payload, turn, index } = this.#next(options);
    const latency = typeof turn === "object" ? (turn.latencyMs ?? this.latencyMs) : this.latencyMs;
    if (options.signal?.aborted) throw abortReason(options.signal);
    if (latency > 0) await sleep(latency, options.signal);
    if (typeof turn === "object" && turn.error) throw turn.error;
    if (typeof turn === "object" && turn.response !== undefined) return turn.response;
    const text = textOf(turn);
    return {
      id: `scripted-${index}`,
      object: "chat.completion",
      model: payload["model"] ?? this.model,
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
      usage: usageOf(payload, text),
    };
  }

  async *stream(options: EndpointCallOptions): AsyncGenerator<unknown, void, undefined> {
    const { payload, turn, index } = this.#next(options);
    const latency = typeof turn === "object" ? (turn.latencyMs ?? this.latencyMs) : this.latencyMs;
    const chunks = typeof turn === "object" && turn.chunks ? turn.chunks : defaultChunks(payload, textOf(turn), index, this.model);
    const failAt = typeof turn === "object" && turn.error ? (turn.failAfterChunks ?? 0) : -1;
    for (let i = 0; i < chunks.length; i++) {
      if (i === failAt && typeof turn === "object" && turn.error) throw turn.error;
      if (options.signal?.aborted) throw abortReason(options.signal);
      if (latency > 0) await sleep(latency, options.signal);
      yield chunks[i];
    }
    if (failAt >= chunks.length && typeof turn === "object" && turn.error) throw turn.error;
  }

  #next(options: EndpointCallOptions): { payload: EndpointPayload; turn: ScriptedTurn; index: number } {
    const payload = options.skipPayloadCreation ? options.request : this.createPayload(options.request).payload;
    const index = this.#calls++;
    this.#lastPayload = payload;
    const script = this.#script;
    let turn: ScriptedTurn;
    if (typeof script === "function") turn = script(payload, index);
    else if (script && script.length > 0) turn = script[Math.min(index, script.length - 1)]!;
    else turn = `Echo: ${lastUserText(payload)}`;
    return { payload, turn, index };
  }
}

function textOf(turn: ScriptedTurn): string {
  return typeof turn === "string" ? turn : (turn.text ?? "");
}

function defaultChunks(payload: EndpointPayload, text: string, index: number, model: string): unknown[] {
  const id = `scripted-${index}`;
  const name = payload["model"] ?? model;
  const pieces = text.match(/\S+\s*/g) ?? [];
  const chunks: unknown[] = pieces.map((piece, i) => ({
    id,
    object: "chat.completion.chunk",
    model: name,
    choices: [{ index: 0, delta: i === 0 ? { role: "assistant", content: piece } : { content: piece }, finish_reason: null }],
  }));
  chunks.push({ id, object: "chat.completion.chunk", model: name, choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage: usageOf(payload, text) });
  return chunks;
}

function usageOf(payload: EndpointPayload, text: string): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  const prompt = wordCount(messagesText(payload));
  const completion = wordCount(text);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function messagesText(payload: EndpointPayload): string {
  const messages = payload["messages"];
  if (!Array.isArray(messages)) return "";
  return messages.map((m: unknown) => contentText(m)).join(" ");
}

function lastUserText(payload: EndpointPayload): string {
  const messages = payload["messages"];
  if (!Array.isArray(messages)) return "";
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as { role?: unknown } | null;
    if (m && m.role === "user") return contentText(m);
  }
  return "";
}

function contentText(message: unknown): string {
  const content = (message as { content?: unknown } | null)?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part: unknown) => (part as { text?: unknown } | null)?.text).filter((t): t is string => typeof t === "string").join(" ");
  return "";
}

function wordCount(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}
