import type { TokenUsage } from "./tokenUsage.js";

/** A request body for a provider, e.g. `{ model, messages, stream }`. Keys are the provider's own. */
export type EndpointPayload = Record<string, unknown>;

/** What `createPayload` builds: the body and the non-secret headers to send with it. */
export interface EndpointRequest {
  payload: EndpointPayload;
  headers: Record<string, string>;
}

/** One call of an endpoint. */
export interface EndpointCallOptions {
  /** The request fields, or (with `skipPayloadCreation`) the finished payload. */
  request: EndpointPayload;
  /** The request is already a payload built by `createPayload`. */
  skipPayloadCreation?: boolean;
  extraHeaders?: Record<string, string> | null;
  cacheControl?: boolean;
  /** Aborting it cancels the call; the endpoint rejects (or ends the stream) with the abort reason. */
  signal?: AbortSignal;
  /** Endpoint-specific transport options. */
  [option: string]: unknown;
}

/**
 * A provider an IModel talks to. `call` returns the provider's parsed response; `stream` yields
 * its parsed chunks. Credentials stay inside the endpoint: never in payloads, headers it hands
 * out, errors or logs.
 */
export interface Endpoint {
  readonly name: string;
  /** Builds the payload and non-secret headers from request fields. */
  createPayload(request: EndpointPayload): EndpointRequest;
  call(options: EndpointCallOptions): Promise<unknown>;
  stream(options: EndpointCallOptions): AsyncIterable<unknown>;
  /** Reads token usage from a response or a chunk; null when it carries none. */
  readUsage?(responseOrChunk: unknown): TokenUsage | null;
}
