import { describeValue } from "../shared/arguments.js";
import { isThenable } from "../shared/async.js";
import { InvalidValueError } from "../shared/errors.js";
import { HookLensError } from "../shared/errors.js";
import { getLogger } from "../shared/log.js";
import type { Message } from "./message.js";
import { signalSettings } from "./pipeline/signalSettings.js";

/** Called after a message is stored. Sync or async; see {@link MessageManager} for how each path runs them. */
export type MessageCallback = (message: Message) => unknown;

/** A sync `addMessage` met an `async` callback; the message was not stored. */
export class AsyncCallbackOnSyncPathError extends HookLensError {
  override name = "AsyncCallbackOnSyncPathError";
}

const AsyncFunction = (async () => {}).constructor;

/** True for `async function`/`async () =>` (and their bound forms), which is how the sync path spots them. */
export function isAsyncFunction(fn: unknown): boolean {
  return typeof fn === "function" && fn instanceof AsyncFunction;
}

/**
 * A Branch's messages and its `onMessageAdded` callbacks. Callbacks run on a snapshot of the
 * list, in order; an error does not stop the others, and afterwards the one error is rethrown
 * as it is, or several as an `AggregateError`. The sync path refuses async callbacks before
 * storing anything. Only the most recent `keepRecentMessages` (signal settings) are kept: a
 * long-running branch's memory stays flat, and a forgotten message counts as never stored.
 */
export class MessageManager {
  /** The callbacks, in call order; mutate it freely (a running add keeps its snapshot). */
  readonly onMessageAdded: MessageCallback[] = [];
  readonly #messages = new Map<string, Message>();
  /** The kept ids, oldest first from `#oldest` (the array is compacted now and then). */
  #order: string[] = [];
  #oldest = 0;

  /** The stored messages in insertion order. */
  get messages(): Message[] {
    return [...this.#messages.values()];
  }

  get(id: string): Message | undefined {
    return this.#messages.get(id);
  }

  has(id: string): boolean {
    return this.#messages.has(id);
  }

  /**
   * Stores `message` and calls every callback synchronously. Throws
   * {@link AsyncCallbackOnSyncPathError} before storing when any callback is an async function.
   * A message already stored is returned as it is, with no callbacks.
   */
  add(message: Message): Message {
    const snapshot = checkedSnapshot(this.onMessageAdded, "MessageManager.add(message)", message);
    const asyncCallback = snapshot.find(isAsyncFunction);
    if (asyncCallback) {
      throw new AsyncCallbackOnSyncPathError(
        `Async onMessageAdded callback ${describeCallback(asyncCallback)} cannot fire from the sync addMessage path; use addMessageAsync()`,
      );
    }
    if (!this.#store(message)) return message;
    const errors: unknown[] = [];
    for (const callback of snapshot) {
      try {
        const out = callback(message);
        // A sync function that returned a promise: nobody awaits it here, so keep its failure visible.
        if (isThenable(out)) Promise.resolve(out).catch((error: unknown) => logUnawaited(callback, error));
      } catch (error) {
        errors.push(error);
      }
    }
    raiseCollected(errors);
    return message;
  }

  /** Stores `message`, then calls the callbacks one after another, awaiting each that returns a promise. */
  async addAsync(message: Message): Promise<Message> {
    const snapshot = checkedSnapshot(this.onMessageAdded, "MessageManager.addAsync(message)", message);
    if (!this.#store(message)) return message;
    const errors: unknown[] = [];
    for (const callback of snapshot) {
      try {
        await callback(message);
      } catch (error) {
        errors.push(error);
      }
    }
    raiseCollected(errors);
    return message;
  }

  #store(message: Message): boolean {
    if (this.#messages.has(message.id)) return false;
    this.#messages.set(message.id, message);
    this.#order.push(message.id);
    this.#forgetOldest(signalSettings().keepRecentMessages);
    return true;
  }

  /** Forgets the oldest messages past `keep`; the id list is compacted once its dead head outgrows the kept part. */
  #forgetOldest(keep: number): void {
    while (this.#messages.size > keep) this.#messages.delete(this.#order[this.#oldest++]!);
    if (this.#oldest > 1_024 && this.#oldest > this.#messages.size) {
      this.#order = this.#order.slice(this.#oldest);
      this.#oldest = 0;
    }
  }
}

/**
 * The callbacks to run, after checking what a JavaScript caller could have got wrong: the
 * message itself, and anything other than a function pushed onto the public callback list
 * (which would otherwise fail as "callback is not a function" after the message was stored).
 */
function checkedSnapshot(callbacks: readonly MessageCallback[], where: string, message: Message): MessageCallback[] {
  if (typeof message !== "object" || message === null || typeof message.id !== "string") {
    throw new InvalidValueError(`${where}: message must be a Message (with a string id), got ${describeValue(message)}`);
  }
  const snapshot = [...callbacks];
  for (const callback of snapshot) {
    if (typeof callback !== "function") throw new InvalidValueError(`${where}: each onMessageAdded callback must be a function, got ${describeValue(callback)}`);
  }
  return snapshot;
}

function raiseCollected(errors: unknown[]): void {
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, "onMessageAdded hooks failed");
}

function describeCallback(callback: MessageCallback): string {
  return callback.name ? `'${callback.name}'` : "(anonymous)";
}

function logUnawaited(callback: MessageCallback, error: unknown): void {
  getLogger().error({ err: error }, `onMessageAdded callback ${describeCallback(callback)} failed after addMessage returned`);
}
