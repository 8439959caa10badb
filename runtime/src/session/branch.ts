import { isThenable, RESOLVED, RESOLVED_TRUE } from "../shared/async.js";
import { getLogger } from "../shared/log.js";
import { actAll, type ActAllOptions, type ActionResponseModel } from "../tool/act.js";
import { ActionManager, type RegisterOptions, type ToolLike } from "../tool/actionManager.js";
import { BackgroundWork } from "./backgroundWork.js";
import type { HookBus } from "./hookBus.js";
import { HookPoint } from "./hookPoint.js";
import { Message, type MessageInit } from "./message.js";
import { MessageManager, type MessageCallback } from "./messageManager.js";
import type { SessionObserver } from "./observer.js";
import { buildRunEnd } from "./runEnd.js";
import { asSignal, MESSAGE_ADDED, RunFailed, RunStart, Signal, SIGNAL_OF_DATA } from "./signal.js";
import { wiringOf } from "./wiring.js";
import { signalSettings } from "./pipeline/signalSettings.js";
import { describeError } from "./describe.js";
import { optionsObject } from "../shared/arguments.js";
import { newId } from "../shared/ids.js";
import { LOG_AND_RECORD, RECORD_DEFERRED, RECORD_SIGNAL, type SignalMaker } from "../signals/signalRecorder.js";

/** Marks every Branch's `persistViaBus` callback, so unrouting removes them wherever they sit. */
export const PERSIST_VIA_BUS: unique symbol = Symbol("hooklens.persistViaBus");

export interface BranchOptions {
  id?: string;
  /** Who the branch acts for; a Session sets it to its own id when it includes the branch. */
  user?: string | null;
  name?: string | null;
}

/**
 * One conversation of a Session: its messages, and the Session attachments it acts through
 * (the observer, and a HookBus only if the Session had one when it included this branch).
 *
 * The Tool scope plugs in here: `act()` (runtime/src/tool/act.ts) authorizes a
 * `ToolCallAction` through {@link authorize}, fires TOOL_PRE/TOOL_POST/TOOL_ERROR on
 * {@link hooks} when it is set, records the call with {@link emitAndLog} and adds the
 * action_request/action_response messages with {@link addMessageAsync}.
 */
export class Branch {
  readonly id: string;
  user: string | null;
  name: string | null;
  readonly #messages = new MessageManager();
  /** The background MessageAdded emissions. */
  readonly #signalEmissions = new BackgroundWork();
  /** Messages whose MessageAdded is scheduled and not yet emitted, oldest first, with their tickets. */
  readonly #unannounced: Message[] = [];
  readonly #unannouncedTickets: number[] = [];
  /** Emits the oldest unannounced message's MessageAdded; one microtask per message, made once per branch. */
  readonly #announceNext = (): void => this.#emitMessageAdded();
  readonly #logs: unknown[] = [];
  /** What a Session attached to this branch: one record per branch, changed in place (wiring.ts). */
  readonly #wiring = wiringOf(this);
  /** The tools this branch can call (Tool scope). */
  readonly actionManager = new ActionManager();

  /**
   * The async message callback that persistence routing installs: it emits MESSAGE_ADD
   * (`{branchId, message}`) on this branch's bus, or does nothing without one. Being async, it
   * makes the sync {@link addMessage} path refuse to run while it is installed.
   */
  readonly persistViaBus: MessageCallback & { readonly [PERSIST_VIA_BUS]: true };

  constructor(options: BranchOptions = {}) {
    optionsObject(options, "new Branch(options)");
    this.id = options.id ?? newId();
    this.user = options.user ?? null;
    this.name = options.name ?? null;
    const persistViaBus = async (message: Message): Promise<void> => {
      const bus = this.hooks;
      if (bus) await bus.emit(HookPoint.MESSAGE_ADD, { branchId: this.id, message });
    };
    this.persistViaBus = Object.assign(persistViaBus, { [PERSIST_VIA_BUS]: true as const });
    const scheduleEmit = (message: Message): void => this.#scheduleEmit(message);
    this.#messages.onMessageAdded.push(scheduleEmit);
  }

  /** The Session's observer once a Session included this branch, otherwise null. */
  get observer(): SessionObserver | null {
    return this.#wiring.observer;
  }

  /** The Session HookBus attached to this branch, or null (standalone, or included before the bus existed). */
  get hooks(): HookBus | null {
    return this.#wiring.hooks;
  }

  /** The id of the Session that owns this branch, or null. */
  get owningSessionId(): string | null {
    return this.#wiring.owningSessionId;
  }

  /** The messages in insertion order. */
  get messages(): Message[] {
    return this.#messages.messages;
  }

  getMessage(id: string): Message | undefined {
    return this.#messages.get(id);
  }

  hasMessage(id: string): boolean {
    return this.#messages.has(id);
  }

  /**
   * The callbacks run after each added message (mutable; order is call order). It starts with
   * the branch's own callback that emits `MessageAdded` to the observer in the background.
   */
  get onMessageAdded(): MessageCallback[] {
    return this.#messages.onMessageAdded;
  }

  /** Adds a message and runs the callbacks synchronously; refuses (before adding) if any callback is async. */
  addMessage<C>(message: Message<C> | MessageInit<C>): Message<C> {
    return this.#messages.add(toMessage(message) as Message) as Message<C>;
  }

  /** Adds a message and runs the callbacks in order, awaiting the async ones. */
  async addMessageAsync<C>(message: Message<C> | MessageInit<C>): Promise<Message<C>> {
    return (await this.#messages.addAsync(toMessage(message) as Message)) as Message<C>;
  }

  /**
   * Emits to the Session observer, tagging a signal's `metadata.branchId` with this branch's id
   * (unless set). Without an observer it does nothing and resolves to `[]`.
   */
  emit(event: unknown): Promise<unknown[]> {
    // Not async (see SessionObserver.emit): the observer's promise is handed back as it is.
    const observer = this.observer;
    if (!observer) return Promise.resolve([]);
    try {
      return observer.emit(this.#tagged(event));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * @internal {@link emit} for the runtime's own recordings, which discard its result: undefined
   * when nothing waits (see `SessionObserver[RECORD_SIGNAL]`). A subclass's own `emit` is called
   * instead. May throw where emit rejects.
   */
  [RECORD_SIGNAL](event: unknown): Promise<unknown[]> | undefined {
    if (this.emit !== OWN_EMIT) return this.emit(event);
    const observer = this.observer;
    if (!observer) return undefined;
    return observer[RECORD_SIGNAL](this.#tagged(event));
  }

  /**
   * @internal {@link RECORD_SIGNAL} for the signal `maker` builds from `source`, tagged with this
   * branch: the observer may keep its parts and build it when read (see
   * `SessionObserver[RECORD_DEFERRED]`). A subclass's own `emit` is called with `maker.event(source)`.
   */
  [RECORD_DEFERRED]<S>(maker: SignalMaker<S>, source: S): Promise<unknown[]> | undefined {
    if (this.emit !== OWN_EMIT) return this.emit(maker.event(source));
    const observer = this.observer;
    if (!observer) return undefined;
    return observer[RECORD_DEFERRED](maker, source, this.id);
  }

  /** `event` as a Signal, tagged with this branch unless it already names one. */
  #tagged(event: unknown): Signal {
    const signal = asSignal(event);
    if (signal.metadata["branchId"] === undefined) signal.metadata["branchId"] = this.id;
    return signal;
  }

  /** Appends `event` to the branch log (which keeps the most recent `keepRecentSignals`), then emits it. */
  emitAndLog(event: unknown): Promise<unknown[]> {
    this.#log(event);
    return this.emit(event);
  }

  /** @internal {@link emitAndLog} without its result, as `[RECORD_SIGNAL]` is for emit. May throw. */
  [LOG_AND_RECORD](event: unknown): Promise<unknown[]> | undefined {
    if (this.emitAndLog !== OWN_EMIT_AND_LOG) return this.emitAndLog(event);
    this.#log(event);
    // A Signal is recorded as it is; anything else (act()'s call) as a Signal's data, built when read.
    return event instanceof Signal ? this[RECORD_SIGNAL](event) : this[RECORD_DEFERRED](SIGNAL_OF_DATA, event);
  }

  #log(event: unknown): void {
    const logs = this.#logs;
    logs.push(event);
    const keep = signalSettings().keepRecentSignals;
    // Trimmed in chunks: one copy per `keep / 4` appends rather than one per append.
    if (logs.length > keep + Math.max(1, keep >> 2)) logs.splice(0, logs.length - keep);
  }

  /** The most recent events {@link emitAndLog} logged (at most `keepRecentSignals`), in order. */
  get logs(): readonly unknown[] {
    const keep = signalSettings().keepRecentSignals;
    return this.#logs.length > keep ? this.#logs.slice(this.#logs.length - keep) : [...this.#logs];
  }

  /** The Session observer's governance check; a branch with no observer allows everything. */
  authorize(action: unknown): Promise<boolean> {
    // Not async: the observer's promise is handed back as it is, so a check costs the caller
    // the same one turn with an observer as without (an async frame adopting it took three).
    const observer = this.observer;
    if (!observer) return RESOLVED_TRUE;
    try {
      return observer.authorize(action);
    } catch (error) {
      // An observer subclass whose check throws: a rejection, as from the async method it was.
      return Promise.reject(error);
    }
  }

  /** Registers tools on this branch's ActionManager; a duplicate name is rejected unless `update` is set. */
  registerTools(tools: ToolLike | readonly ToolLike[], options: RegisterOptions = {}): this {
    this.actionManager.register(tools, options);
    return this;
  }

  /**
   * Runs tool calls through the action flow of `runtime/src/tool/act.ts` and always returns a
   * list. Defaults as built: `strategy: "concurrent"`, `suppressErrors: true`.
   */
  act(requests: unknown, options: ActAllOptions = {}): Promise<ActionResponseModel[]> {
    return actAll(this, requests, options);
  }

  /** Waits for the background `MessageAdded` emissions started so far; their failures are logged, never raised. */
  drainSignals(): Promise<void> {
    return this.#signalEmissions.drained();
  }

  /**
   * Runs `run` as an observed run: `RunStart` before (when observed), then `RunEnd` with the
   * result, the summed usage and the duration, or `RunFailed` with the error, which is rethrown.
   * Background message signals are drained first; emit failures here are logged, never raised.
   */
  async observedRun<T>(run: () => T | Promise<T>): Promise<T> {
    const started = performance.now();
    // A named branch's run says whose it is (createAgent names a branch after its AgentSpec): the
    // OpenTelemetry export names the run's invoke_agent span after it. In metadata, beside the
    // branch id, so RunStart keeps the as-built fields.
    if (this.observer) await this.#safeEmit(new RunStart(this.name ? { metadata: { branchName: this.name } } : {}));
    let result: T;
    try {
      result = await run();
    } catch (error) {
      await this.drainSignals();
      await this.#safeEmit(new RunFailed({ data: error }));
      throw error;
    }
    await this.drainSignals();
    await this.#safeEmit(buildRunEnd(this, { durationMs: performance.now() - started, result }));
    return result;
  }

  async #safeEmit(signal: Signal): Promise<void> {
    try {
      await this.emit(signal);
    } catch (error) {
      getLogger().error({ err: error, branchId: this.id }, `Could not emit ${signal.constructor.name}: ${describeError(error)}`);
    }
  }

  // The sync callback every branch installs: MessageAdded goes out in the background so a slow
  // or failing subscriber never holds up (or breaks) adding the message. It goes out in a
  // microtask of its own, queued now: after the caller's stack (the message is stored and every
  // callback has run), and among other microtasks exactly where this call queued it.
  #scheduleEmit(message: Message): void {
    if (!this.observer) return;
    this.#unannounced.push(message);
    this.#unannouncedTickets.push(this.#signalEmissions.start());
    // A reaction on a settled promise, not queueMicrotask (which makes an async resource per call).
    void RESOLVED.then(this.#announceNext);
  }

  // Runs once per scheduled message, in scheduling order (microtasks run first in, first out), so
  // the oldest queued message is this run's. No closure, promise or async frame per message: this
  // runs for every message, and those were a visible part of act()'s cost. Never throws.
  #emitMessageAdded(): void {
    const message = this.#unannounced.shift()!;
    const ticket = this.#unannouncedTickets.shift()!;
    let pending: unknown;
    try {
      pending = this[RECORD_DEFERRED](MESSAGE_ADDED, message);
    } catch (error) {
      this.#announceFailed(error);
    }
    if (pending !== undefined && isThenable(pending)) {
      // Async subscribers: the emission ends when they do.
      Promise.resolve(pending).then(
        () => this.#signalEmissions.finish(ticket),
        (error: unknown) => {
          this.#announceFailed(error);
          this.#signalEmissions.finish(ticket);
        },
      );
      return;
    }
    this.#signalEmissions.finish(ticket);
  }

  #announceFailed(error: unknown): void {
    try {
      getLogger().error({ err: error, branchId: this.id }, `MessageAdded emission failed: ${describeError(error)}`);
    } catch {
      // A logger that throws must not break the other emissions or the drain.
    }
  }
}

/** The methods the result-free forms stand for: a subclass that overrides one is called through it. */
const OWN_EMIT = Branch.prototype.emit;
const OWN_EMIT_AND_LOG = Branch.prototype.emitAndLog;

function toMessage<C>(message: Message<C> | MessageInit<C>): Message<C> {
  return message instanceof Message ? message : new Message(message);
}
