import { optionsObject } from "../shared/arguments.js";
import { abortReason } from "./cancellation.js";
import type { Endpoint, EndpointCallOptions, EndpointPayload, EndpointRequest } from "./endpoint.js";
import {
  EndpointConnectionError,
  EndpointError,
  EndpointHttpError,
  EndpointResponseError,
  EndpointStreamError,
  EndpointTimeoutError,
} from "./endpointErrors.js";
import { redactSecret } from "./secrets.js";
import { parseServerSentEvents } from "./sse.js";
import { readTokenUsage, type TokenUsage } from "./tokenUsage.js";

export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";
export const DEFAULT_API_KEY_ENV = "OPENAI_API_KEY";
/** Ten minutes, the usual SDK default for a whole request. */
export const DEFAULT_ENDPOINT_TIMEOUT_MS = 600_000;
const BODY_EXCERPT_CHARS = 500;

export interface OpenAIChatEndpointOptions {
  /** Default https://api.openai.com/v1; any OpenAI-compatible server works (vLLM, Ollama, LM Studio…). */
  baseUrl?: string;
  /** Default "/chat/completions". */
  path?: string;
  /** The key; when absent it is read from `process.env[apiKeyEnv]` at construction. No key means no Authorization header. */
  apiKey?: string | null;
  /** Default "OPENAI_API_KEY". */
  apiKeyEnv?: string;
  /** Put in every payload that does not name a model. */
  model?: string;
  /** Extra headers for every request. They stay inside the endpoint. */
  headers?: Record<string, string>;
  /** Deadline of one whole call or stream, in milliseconds. Default 600 000. */
  timeoutMs?: number;
  name?: string;
}

/**
 * An OpenAI-compatible chat completions endpoint over `fetch`. `call` posts JSON and resolves
 * with the parsed body; `stream` posts with `stream: true` and yields each parsed SSE `data:`
 * object until `[DONE]`. Failures are typed: {@link EndpointHttpError} (non-2xx, with status),
 * {@link EndpointResponseError} (bad JSON), {@link EndpointStreamError} (broken or malformed
 * stream), {@link EndpointConnectionError}, {@link EndpointTimeoutError}. A caller's abort rejects
 * with the abort reason, so events record it as a cancellation. The key never leaves the
 * instance: it is held privately and redacted from every message.
 */
export class OpenAIChatEndpoint implements Endpoint {
  readonly name: string;
  readonly baseUrl: string;
  readonly path: string;
  readonly model: string | null;
  readonly timeoutMs: number;
  readonly #apiKey: string | null;
  readonly #apiKeySource: string;
  readonly #headers: Record<string, string>;

  constructor(options: OpenAIChatEndpointOptions = {}) {
    options = optionsObject(options, "new OpenAIChatEndpoint(options)");
    const env = options.apiKeyEnv ?? DEFAULT_API_KEY_ENV;
    this.name = options.name ?? "openai_chat";
    this.baseUrl = (options.baseUrl ?? DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, "");
    this.path = options.path ?? "/chat/completions";
    this.model = options.model ?? null;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
    this.#apiKey = options.apiKey ?? process.env[env] ?? null;
    this.#apiKeySource = options.apiKey ? "the apiKey option" : `$${env}`;
    this.#headers = { ...(options.headers ?? {}) };
  }

  /** Whether a key was configured (the key itself is never readable). */
  get hasApiKey(): boolean {
    return this.#apiKey !== null && this.#apiKey !== "";
  }

  get url(): string {
    return `${this.baseUrl}${this.path}`;
  }

  createPayload(request: EndpointPayload): EndpointRequest {
    const payload: EndpointPayload = this.model !== null && request["model"] === undefined ? { model: this.model, ...request } : { ...request };
    return { payload, headers: {} };
  }

  readUsage(responseOrChunk: unknown): TokenUsage | null {
    return readTokenUsage(responseOrChunk);
  }

  async call(options: EndpointCallOptions): Promise<unknown> {
    const payload = options.skipPayloadCreation ? options.request : this.createPayload(options.request).payload;
    const deadline = new RequestDeadline(this.timeoutMs, options.signal);
    try {
      const response = await this.#post(payload, options, deadline.signal);
      const text = await response.text();
      if (!response.ok) throw this.#httpError(response, text);
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw new EndpointResponseError(this.#redact(`${this.url} answered ${response.status} with malformed JSON: ${excerpt(text)}`), { cause: error });
      }
    } catch (error) {
      throw this.#transportError(error, options.signal, deadline, "reading the response");
    } finally {
      deadline.dispose();
    }
  }

  async *stream(options: EndpointCallOptions): AsyncGenerator<unknown, void, undefined> {
    const base = options.skipPayloadCreation ? options.request : this.createPayload(options.request).payload;
    const payload = { ...base, stream: true };
    const deadline = new RequestDeadline(this.timeoutMs, options.signal);
    try {
      const response = await this.#post(payload, options, deadline.signal);
      if (!response.ok) throw this.#httpError(response, await response.text());
      const type = response.headers.get("content-type") ?? "";
      if (!type.includes("text/event-stream") || !response.body) {
        const text = await response.text();
        throw new EndpointResponseError(this.#redact(`${this.url} answered ${response.status} with ${type || "no content type"} instead of an event stream: ${excerpt(text)}`));
      }
      for await (const event of parseServerSentEvents(response.body)) {
        if (event.data === "[DONE]") return;
        yield this.#parseEvent(event.event, event.data);
      }
    } catch (error) {
      throw this.#transportError(error, options.signal, deadline, "streaming");
    } finally {
      deadline.dispose();
    }
  }

  #parseEvent(name: string, data: string): unknown {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch (error) {
      throw new EndpointStreamError(this.#redact(`${this.url} sent a stream event that is not JSON: ${excerpt(data)}`), { cause: error });
    }
    const reported = typeof parsed === "object" && parsed !== null ? (parsed as { error?: unknown }).error : undefined;
    if (name === "error" || (reported !== undefined && reported !== null)) {
      throw new EndpointStreamError(this.#redact(`${this.url} reported an error mid-stream: ${errorMessageOf(parsed) ?? excerpt(data)}`));
    }
    return parsed;
  }

  #post(payload: EndpointPayload, options: EndpointCallOptions, signal: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    Object.assign(headers, this.#headers, options.extraHeaders ?? {});
    if (this.hasApiKey) headers["authorization"] = `Bearer ${this.#apiKey}`;
    return fetch(this.url, { method: "POST", headers, body: JSON.stringify(payload), signal });
  }

  #httpError(response: Response, text: string): EndpointHttpError {
    const detail = errorMessageOf(tryJson(text)) ?? excerpt(text);
    const hint = response.status === 401 && !this.hasApiKey ? ` (no API key configured: pass apiKey or set ${this.#apiKeySource})` : "";
    const message = `${this.url} answered ${response.status} ${response.statusText}: ${detail}${hint}`;
    return new EndpointHttpError(response.status, this.#redact(message), this.#redact(excerpt(text)));
  }

  /** Our own errors pass through; a caller's abort rethrows its reason; the rest become typed errors. */
  #transportError(error: unknown, outer: AbortSignal | undefined, deadline: RequestDeadline, during: string): unknown {
    if (error instanceof EndpointError) return error;
    if (outer?.aborted) return abortReason(outer);
    if (deadline.timedOut) return new EndpointTimeoutError(`${this.url} did not finish within ${this.timeoutMs} ms`, { retryable: true });
    const reason = this.#redact(describe(error));
    if (during === "streaming") return new EndpointStreamError(`The stream from ${this.url} broke off: ${reason}`, { retryable: true, cause: error });
    return new EndpointConnectionError(`Connection to ${this.url} failed while ${during}: ${reason}`, { retryable: true, cause: error });
  }

  #redact(text: string): string {
    return redactSecret(text, this.#apiKey);
  }

  /** What JSON and logs see: the configuration, never the key. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, url: this.url, model: this.model, timeoutMs: this.timeoutMs, hasApiKey: this.hasApiKey };
  }
}

/**
 * One request's abort signal: the caller's signal plus the endpoint's timeout. Built by hand
 * rather than with AbortSignal.any/timeout so nothing stays attached to a long-lived caller
 * signal once the request is over, and so a timeout is told apart from a caller's abort.
 */
class RequestDeadline {
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #outer: AbortSignal | undefined;
  readonly #onAbort = (): void => this.#controller.abort(abortReason(this.#outer!));
  timedOut = false;

  constructor(timeoutMs: number, outer: AbortSignal | undefined) {
    this.#outer = outer;
    this.#timer = setTimeout(() => {
      this.timedOut = true;
      this.#controller.abort(new DOMException("The endpoint's timeout passed", "TimeoutError"));
    }, timeoutMs);
    // The open socket keeps the process alive while a request runs; an abandoned stream must not.
    this.#timer.unref();
    if (outer?.aborted) this.#onAbort();
    else outer?.addEventListener("abort", this.#onAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#outer?.removeEventListener("abort", this.#onAbort);
  }
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** `{ error: { message } }`, `{ error: "…" }` or `{ message }`, as providers send them. */
function errorMessageOf(body: unknown): string | null {
  if (typeof body !== "object" || body === null) return null;
  const { error, message } = body as { error?: unknown; message?: unknown };
  if (typeof error === "string") return error;
  if (typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string") {
    return (error as { message: string }).message;
  }
  return typeof message === "string" ? message : null;
}

function excerpt(text: string): string {
  const flat = text.trim();
  return flat.length > BODY_EXCERPT_CHARS ? `${flat.slice(0, BODY_EXCERPT_CHARS)}…` : flat || "(empty body)";
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = typeof cause === "object" && cause !== null ? (cause as { code?: unknown }).code : undefined;
  return `${error.message}${typeof code === "string" ? ` (${code})` : cause instanceof Error ? ` (${cause.message})` : ""}`;
}
