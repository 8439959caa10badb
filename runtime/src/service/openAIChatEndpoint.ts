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
import { redactError } from "../shared/redaction/index.js";
import { credentialsOf, EndpointSecrets } from "./secrets.js";
import { parseServerSentEvents } from "./sse.js";
import { readTokenUsage, type TokenUsage } from "./tokenUsage.js";

export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";
export const DEFAULT_API_KEY_ENV = "OPENAI_API_KEY";
/** Ten minutes, the usual SDK default for a whole request. */
export const DEFAULT_ENDPOINT_TIMEOUT_MS = 600_000;
const BODY_EXCERPT_CHARS = 500;

export interface OpenAIChatEndpointOptions {
  /**
   * Default https://api.openai.com/v1; any OpenAI-compatible server works (vLLM, Ollama, LM Studio…).
   * `user:password@` in it is taken out of the URL and sent as Basic authorization when no key is set.
   */
  baseUrl?: string;
  /** Default "/chat/completions". */
  path?: string;
  /**
   * The key; when absent it is read from `process.env[apiKeyEnv]` at construction. No key means no
   * Authorization header. Surrounding whitespace (a key read from a file ends with a newline) is
   * not part of the key.
   */
  apiKey?: string | null;
  /** Default "OPENAI_API_KEY". */
  apiKeyEnv?: string;
  /** Put in every payload that does not name a model. */
  model?: string;
  /** Extra headers for every request. They stay inside the endpoint; values of secret-named ones (`api-key`) are redacted from errors. */
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
  readonly #basicAuth: string | null;
  readonly #secrets: EndpointSecrets;

  constructor(options: OpenAIChatEndpointOptions = {}) {
    options = optionsObject(options, "new OpenAIChatEndpoint(options)");
    const env = options.apiKeyEnv ?? DEFAULT_API_KEY_ENV;
    this.name = options.name ?? "openai_chat";
    const given = (options.baseUrl ?? DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, "");
    const credentials = credentialsOf(given);
    this.baseUrl = credentials.url;
    this.path = options.path ?? "/chat/completions";
    this.model = options.model ?? null;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
    const rawKey = options.apiKey ?? process.env[env] ?? null;
    this.#apiKey = rawKey === null ? null : rawKey.trim();
    this.#apiKeySource = options.apiKey ? "the apiKey option" : `$${env}`;
    this.#headers = { ...(options.headers ?? {}) };
    this.#basicAuth = credentials.basic;
    // Every form of every credential this endpoint was given: the key as given and trimmed, the
    // URL's user:password, secret-named header values. Errors are redacted against all of them.
    this.#secrets = new EndpointSecrets([rawKey, ...credentials.secrets], this.#headers);
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
      if (!response.ok) throw this.#httpError(response, text, options);
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw new EndpointResponseError(`${this.url} answered ${response.status} with malformed JSON: ${this.#excerpt(text, options)}`, {
          cause: this.#redactError(error, options),
        });
      }
    } catch (error) {
      throw this.#transportError(error, options, deadline, "reading the response");
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
      if (!response.ok) throw this.#httpError(response, await response.text(), options);
      const type = response.headers.get("content-type") ?? "";
      if (!type.includes("text/event-stream") || !response.body) {
        const text = await response.text();
        throw new EndpointResponseError(
          `${this.url} answered ${response.status} with ${this.#redact(type, options) || "no content type"} instead of an event stream: ${this.#excerpt(text, options)}`,
        );
      }
      for await (const event of parseServerSentEvents(response.body)) {
        if (event.data === "[DONE]") return;
        yield this.#parseEvent(event.event, event.data, options);
      }
    } catch (error) {
      throw this.#transportError(error, options, deadline, "streaming");
    } finally {
      deadline.dispose();
    }
  }

  #parseEvent(name: string, data: string, options: EndpointCallOptions): unknown {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch (error) {
      throw new EndpointStreamError(`${this.url} sent a stream event that is not JSON: ${this.#excerpt(data, options)}`, {
        cause: this.#redactError(error, options),
      });
    }
    const reported = typeof parsed === "object" && parsed !== null ? (parsed as { error?: unknown }).error : undefined;
    if (name === "error" || (reported !== undefined && reported !== null)) {
      const detail = errorMessageOf(parsed);
      throw new EndpointStreamError(
        `${this.url} reported an error mid-stream: ${detail === null ? this.#excerpt(data, options) : this.#excerpt(detail, options)}`,
      );
    }
    return parsed;
  }

  #post(payload: EndpointPayload, options: EndpointCallOptions, signal: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    Object.assign(headers, this.#headers, options.extraHeaders ?? {});
    if (this.hasApiKey) headers["authorization"] = `Bearer ${this.#apiKey}`;
    else if (this.#basicAuth !== null) headers["authorization"] = `Basic ${this.#basicAuth}`;
    return fetch(this.url, { method: "POST", headers, body: JSON.stringify(payload), signal });
  }

  #httpError(response: Response, text: string, options: EndpointCallOptions): EndpointHttpError {
    const reported = errorMessageOf(tryJson(text));
    const detail = reported === null ? this.#excerpt(text, options) : this.#excerpt(reported, options);
    const hint = response.status === 401 && !this.hasApiKey ? ` (no API key configured: pass apiKey or set ${this.#apiKeySource})` : "";
    const message = `${this.url} answered ${response.status} ${this.#redact(response.statusText, options)}: ${detail}${hint}`;
    return new EndpointHttpError(response.status, message, this.#excerpt(text, options));
  }

  /** Our own errors pass through; a caller's abort rethrows its reason; the rest become typed errors. */
  #transportError(error: unknown, options: EndpointCallOptions, deadline: RequestDeadline, during: string): unknown {
    if (error instanceof EndpointError) return error;
    const outer = options.signal;
    if (outer?.aborted) return abortReason(outer);
    if (deadline.timedOut) return new EndpointTimeoutError(`${this.url} did not finish within ${this.timeoutMs} ms`, { retryable: true });
    const reason = this.#redact(describe(error), options);
    const cause = this.#redactError(error, options);
    if (during === "streaming") return new EndpointStreamError(`The stream from ${this.url} broke off: ${reason}`, { retryable: true, cause });
    return new EndpointConnectionError(`Connection to ${this.url} failed while ${during}: ${reason}`, { retryable: true, cause });
  }

  /** Text from the server or the network with every credential of this call masked. */
  #redact(text: string, options: EndpointCallOptions): string {
    return this.#secrets.redact(text, options);
  }

  /** The whole text is redacted first, then cut: a key straddling the cut is still recognised whole. */
  #excerpt(text: string, options: EndpointCallOptions): string {
    return excerpt(this.#redact(text, options));
  }

  #redactError(error: unknown, options: EndpointCallOptions): unknown {
    return redactError(error, { secrets: this.#secrets.forCall(options) });
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
