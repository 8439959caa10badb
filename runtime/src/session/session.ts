import { describeValue, optionsObject, requireInstance } from "../shared/arguments.js";
import { InvalidValueError } from "../shared/errors.js";
import { Branch, type BranchOptions } from "./branch.js";
import type { HookBus } from "./hookBus.js";
import { buildSessionBus } from "./loader.js";
import type { Gate, ObserveFunction, RouteCondition } from "./observeTypes.js";
import { SessionObserver } from "./observer.js";
import { wiringOf } from "./wiring.js";
import { newId } from "../shared/ids.js";
import { RECORD_SIGNAL } from "../signals/signalRecorder.js";
import { noteSessionStarted } from "../signals/activeSession.js";

export interface SessionOptions {
  id?: string;
  /** The default branch; a new Branch when omitted. Included first. */
  defaultBranch?: Branch;
  /** More branches to include after the default one. */
  branches?: Iterable<Branch>;
}

/**
 * Owns branches, the observer that records their signals and (lazily) the HookBus.
 *
 * Attachment depends on access order: including a branch always gives it the observer, but gives
 * it the bus only if `hooks` was read before. Reading `hooks` later does not reach branches that
 * are already included, and the default branch is included during construction, so it has no
 * bus unless it is included again (or routed) after `hooks` was read.
 */
export class Session {
  readonly id: string;
  readonly #branches = new Map<string, Branch>();
  #defaultBranch: Branch | null = null;
  #observer: SessionObserver | null = null;
  #hooks: HookBus | null = null;

  constructor(options: SessionOptions = {}) {
    options = optionsObject(options, "new Session(options)");
    this.id = options.id ?? newId();
    this.includeBranches([options.defaultBranch ?? new Branch(), ...(options.branches ?? [])]);
    noteSessionStarted(this);
  }

  /** The session's observer, created on first access (which construction already makes). */
  get observer(): SessionObserver {
    this.#observer ??= new SessionObserver({ session: this });
    return this.#observer;
  }

  /** The session's HookBus, built on first access with the default handlers only (no agent overrides). */
  get hooks(): HookBus {
    this.#hooks ??= buildSessionBus(null, { observer: this.observer });
    return this.#hooks;
  }

  get branches(): Branch[] {
    return [...this.#branches.values()];
  }

  get defaultBranch(): Branch | null {
    return this.#defaultBranch;
  }

  getBranch(id: string): Branch | undefined {
    return this.#branches.get(id);
  }

  /**
   * Takes ownership of branches. Throws, changing nothing, when any of them belongs to another
   * session. Each gets the observer; each gets the bus only if it already exists. Including a
   * branch again is harmless (and attaches a bus created since).
   */
  includeBranches(branches: Branch | Iterable<Branch>): void {
    const where = "Session.includeBranches(branches)";
    if (!(branches instanceof Branch) && typeof (branches as Partial<Iterable<Branch>> | null)?.[Symbol.iterator] !== "function") {
      throw new InvalidValueError(`${where}: branches must be a Branch or a list of Branches, got ${describeValue(branches)}`);
    }
    const list = branches instanceof Branch ? [branches] : [...branches];
    for (const branch of list) requireInstance(branch, Branch, "a Branch", where, "each of branches");
    for (const branch of list) {
      const owner = wiringOf(branch).owningSessionId;
      if (owner !== null && owner !== this.id) {
        throw new InvalidValueError(
          `Branch ${branch.id} is already owned by session ${owner}; call removeBranch() on that session first`,
        );
      }
    }
    for (const branch of list) {
      if (!this.#branches.has(branch.id)) this.#branches.set(branch.id, branch);
      const wiring = wiringOf(branch);
      wiring.owningSessionId = this.id;
      branch.user = this.id;
      wiring.observer = this.observer;
      if (this.#hooks) wiring.hooks = this.#hooks;
      this.#defaultBranch ??= branch;
    }
  }

  /**
   * Releases a branch this session owns: it loses the observer, the bus and its owner (and its
   * `user`, if that was this session) but keeps its messages. Returns false if it was not owned here.
   */
  removeBranch(branch: Branch | string): boolean {
    const target = typeof branch === "string" ? this.#branches.get(branch) : branch;
    if (!target || !this.#branches.delete(target.id)) return false;
    const wiring = wiringOf(target);
    wiring.owningSessionId = null;
    wiring.observer = null;
    wiring.hooks = null;
    if (target.user === this.id) target.user = null;
    if (this.#defaultBranch === target) this.#defaultBranch = this.#branches.values().next().value ?? null;
    return true;
  }

  /** Creates a Branch and includes it. */
  newBranch(options: BranchOptions = {}): Branch {
    const branch = new Branch(options);
    this.includeBranches(branch);
    return branch;
  }

  /** `observer.observe`. */
  readonly observe: ObserveFunction = ((...args: unknown[]) =>
    (this.observer.observe as (...a: unknown[]) => unknown)(...args)) as ObserveFunction;

  /** `observer.route`; returns the observer. */
  route(condition: RouteCondition, options: { into: string }): SessionObserver {
    return this.observer.route(condition, options);
  }

  /** `observer.gate`; returns the observer. */
  gate(check: Gate | null): SessionObserver {
    return this.observer.gate(check);
  }

  emit(event: unknown): Promise<unknown[]> {
    return this.observer.emit(event);
  }

  /** @internal {@link emit} without its result, for the runtime's own recordings (see `SessionObserver[RECORD_SIGNAL]`). */
  [RECORD_SIGNAL](event: unknown): Promise<unknown[]> | undefined {
    return this.emit === SESSION_EMIT ? this.observer[RECORD_SIGNAL](event) : this.emit(event);
  }

  authorize(action: unknown): Promise<boolean> {
    return this.observer.authorize(action);
  }
}

/** The emit the result-free form stands for: a subclass that overrides emit is called through it. */
const SESSION_EMIT = Session.prototype.emit;
