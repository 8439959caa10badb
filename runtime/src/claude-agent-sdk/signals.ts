import { Signal, type SignalInit } from "../session/signal.js";
import { requireObject } from "../shared/arguments.js";

/** How a wrapped callback ended: it returned or threw, or ended after the SDK aborted it (a timeout when its matcher's time was up). */
export type CallbackOutcome = "returned" | "threw" | "aborted" | "timeout";

/** An error as a bridge signal carries it. */
export interface CallbackError {
  readonly name: string;
  readonly message: string;
}

/** What every wrapped call records, hook or permission callback. */
export interface CallbackCallInit {
  readonly toolName: string | null;
  readonly toolUseId: string | null;
  /** The SDK's own session id (the CLI's), when the call carries it. */
  readonly sdkSessionId: string | null;
  readonly input: unknown;
  readonly output: unknown;
  /** The decision the output states (`allow`, `deny`, `ask`, `defer`, `block`, `approve`, `stop`, `async`), null when it states none. */
  readonly decision: string | null;
  readonly reason: string | null;
  readonly outcome: CallbackOutcome;
  readonly error: CallbackError | null;
  /** Milliseconds from the call to its end (or to the abort). */
  readonly durationMs: number;
  /** The callback's own name ("" for an anonymous one). */
  readonly callback: string;
}

export interface HookCallInit extends CallbackCallInit {
  /** The event the callback is registered under (`PreToolUse`, …). */
  readonly event: string;
  readonly matcher: string | null;
  /** The matcher's timeout in seconds, null when it sets none. */
  readonly timeoutSeconds: number | null;
  /** The matcher's onFailure, null when it sets none (the SDK's default is "continue"). */
  readonly onFailure: string | null;
}

/** What both kinds of callback call carry, assigned in one place (plain assignments: one signal per call). */
abstract class CallbackCall extends Signal<null> {
  declare readonly toolName: string | null;
  declare readonly toolUseId: string | null;
  declare readonly sdkSessionId: string | null;
  declare readonly input: unknown;
  declare readonly output: unknown;
  declare readonly decision: string | null;
  declare readonly reason: string | null;
  declare readonly outcome: CallbackOutcome;
  declare readonly error: CallbackError | null;
  declare readonly durationMs: number;
  declare readonly callback: string;

  constructor(call: CallbackCallInit, init: SignalInit<null>) {
    super(init);
    requireObject(call, `new ${new.target.name}(call, init)`, "call");
    this.toolName = call.toolName;
    this.toolUseId = call.toolUseId;
    this.sdkSessionId = call.sdkSessionId;
    this.input = call.input;
    this.output = call.output;
    this.decision = call.decision;
    this.reason = call.reason;
    this.outcome = call.outcome;
    this.error = call.error;
    this.durationMs = call.durationMs;
    this.callback = call.callback;
  }
}

/** One call of a Claude Agent SDK hook callback, created at its end with the time it started. */
export class ClaudeHookCall extends CallbackCall {
  static override readonly kind: string = "ClaudeHookCall";
  declare readonly event: string;
  declare readonly matcher: string | null;
  declare readonly timeoutSeconds: number | null;
  declare readonly onFailure: string | null;

  constructor(call: HookCallInit, init: SignalInit<null> = {}) {
    super(call, init);
    this.event = call.event;
    this.matcher = call.matcher;
    this.timeoutSeconds = call.timeoutSeconds;
    this.onFailure = call.onFailure;
  }
}

/** One call of the `canUseTool` permission callback. */
export class ClaudePermissionCall extends CallbackCall {
  static override readonly kind: string = "ClaudePermissionCall";

  constructor(call: CallbackCallInit, init: SignalInit<null> = {}) {
    super(call, init);
  }
}

/** A query message HookLens records as it passes: a hook's lifecycle (`hook_started`, `hook_progress`, `hook_response`) or a `permission_denied`. */
export class ClaudeQueryEvent extends Signal<null> {
  static override readonly kind: string = "ClaudeQueryEvent";
  /** The message's subtype. */
  declare readonly subtype: string;
  declare readonly event: string | null;
  declare readonly hookName: string | null;
  declare readonly toolName: string | null;
  declare readonly toolUseId: string | null;
  declare readonly sdkSessionId: string | null;
  /** `hook_response`'s outcome (`success`, `error`, `cancelled`), or `denied` for a permission denial. */
  declare readonly outcome: string | null;
  declare readonly reason: string | null;
  declare readonly message: unknown;

  constructor(fields: Omit<ClaudeQueryEvent, keyof Signal>, init: SignalInit<null> = {}) {
    super(init);
    Object.assign(this, requireObject(fields, "new ClaudeQueryEvent(fields, init)", "fields"));
  }
}
