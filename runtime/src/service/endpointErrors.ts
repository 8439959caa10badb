import { HookLensError } from "../shared/errors.js";

/** Something went wrong talking to an endpoint. `retryable` says whether the same call may succeed later. */
export class EndpointError extends HookLensError {
  override name = "EndpointError";
  readonly retryable: boolean;

  constructor(message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryable = options.retryable ?? false;
  }
}

/** The server answered with a non-2xx status. `body` is a redacted excerpt of what it sent. */
export class EndpointHttpError extends EndpointError {
  override name = "EndpointHttpError";
  readonly status: number;
  readonly body: string;

  constructor(status: number, message: string, body: string) {
    super(message, { retryable: status === 408 || status === 409 || status === 429 || status >= 500 });
    this.status = status;
    this.body = body;
  }
}

/** The server answered 2xx with a body that is not the JSON it should be. */
export class EndpointResponseError extends EndpointError {
  override name = "EndpointResponseError";
}

/** A streamed response broke off or carried an event that cannot be read. */
export class EndpointStreamError extends EndpointError {
  override name = "EndpointStreamError";
}

/** The connection failed or closed before a complete response arrived. */
export class EndpointConnectionError extends EndpointError {
  override name = "EndpointConnectionError";
}

/** The endpoint's own `timeoutMs` passed. A caller's abort is a cancellation instead, never this. */
export class EndpointTimeoutError extends EndpointError {
  override name = "EndpointTimeoutError";
}
