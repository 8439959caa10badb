import type { Endpoint, EndpointPayload } from "./endpoint.js";
import type { EventDict, EventInit } from "./event.js";
import { HookedEvent } from "./hookedEvent.js";
import { readTokenUsage, type TokenUsage } from "./tokenUsage.js";
import { requireObject } from "../shared/arguments.js";

export interface APICallingInit extends EventInit {
  endpoint: Endpoint;
  payload: EndpointPayload;
  /** Per-call headers (never credentials: the endpoint adds those itself). */
  headers?: Record<string, string>;
  /** Endpoint-specific transport options spread into `endpoint.call`/`stream`. */
  callOptions?: Record<string, unknown>;
  cacheControl?: boolean;
}

export interface APICallingDict extends EventDict {
  payload: EndpointPayload;
  usage: TokenUsage | null;
}

/**
 * One provider request as a hooked event. After `invoke()`: `status`, `response` (the provider's
 * parsed body), `execution.error` (the Error, when FAILED or CANCELLED) and `usage`. While
 * streaming, `usage` is taken from the last chunk that reports one (OpenAI sends it in the final
 * chunk when the payload asks with `stream_options: { include_usage: true }`).
 */
export class APICalling extends HookedEvent {
  readonly endpoint: Endpoint;
  readonly payload: EndpointPayload;
  readonly headers: Record<string, string>;
  readonly callOptions: Record<string, unknown>;
  readonly cacheControl: boolean;
  #streamUsage: TokenUsage | null = null;

  constructor(init: APICallingInit) {
    super(requireObject(init, "new APICalling(init)", "init ({ endpoint, payload })"));
    this.endpoint = requireObject(init.endpoint, "new APICalling(init)", "init.endpoint (an Endpoint)");
    this.payload = requireObject(init.payload, "new APICalling(init)", "init.payload");
    if (init.streaming === undefined) this.streaming = init.payload["stream"] === true;
    this.headers = init.headers ?? {};
    this.callOptions = init.callOptions ?? {};
    this.cacheControl = init.cacheControl ?? false;
  }

  /**
   * Tokens a rate limiter should reserve for this call: null, because no shipped endpoint asks
   * for a count up front (the original estimates only for endpoints that require one).
   */
  get requiredTokens(): number | null {
    return null;
  }

  /** What a rate limiter reads, as in the original: `{ requiredTokens }`. The body is `payload`. */
  override get request(): Record<string, unknown> {
    return { requiredTokens: this.requiredTokens };
  }

  /** Token usage the provider reported for this call, or null when it reported none. */
  get usage(): TokenUsage | null {
    if (this.#streamUsage) return this.#streamUsage;
    return this.#readUsage(this.execution.response);
  }

  protected override _coreInvoke(signal?: AbortSignal): Promise<unknown> {
    return this.endpoint.call({
      ...this.callOptions,
      request: this.payload,
      cacheControl: this.cacheControl,
      skipPayloadCreation: true,
      extraHeaders: Object.keys(this.headers).length > 0 ? this.headers : null,
      ...(signal && { signal }),
    });
  }

  protected override async *_coreStream(signal?: AbortSignal): AsyncGenerator<unknown, void, undefined> {
    const chunks = this.endpoint.stream({
      ...this.callOptions,
      request: this.payload,
      skipPayloadCreation: true,
      extraHeaders: Object.keys(this.headers).length > 0 ? this.headers : null,
      ...(signal && { signal }),
    });
    for await (const chunk of chunks) {
      const usage = this.#readUsage(chunk);
      if (usage) this.#streamUsage = usage;
      yield chunk;
    }
  }

  #readUsage(value: unknown): TokenUsage | null {
    return this.endpoint.readUsage ? this.endpoint.readUsage(value) : readTokenUsage(value);
  }

  override toDict(): APICallingDict {
    return { ...super.toDict(), payload: this.payload, usage: this.usage };
  }
}
