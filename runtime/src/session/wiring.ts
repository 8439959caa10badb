import type { Branch } from "./branch.js";
import type { HookBus } from "./hookBus.js";
import type { SessionObserver } from "./observer.js";

/** What a Session (or the persistence router) attaches to a Branch. Internal: not exported from the package. */
export interface BranchWiring {
  observer: SessionObserver | null;
  hooks: HookBus | null;
  owningSessionId: string | null;
}

const wirings = new WeakMap<Branch, BranchWiring>();

/** The mutable attachment record of `branch`, created empty on first use. */
export function wiringOf(branch: Branch): BranchWiring {
  let wiring = wirings.get(branch);
  if (!wiring) {
    wiring = { observer: null, hooks: null, owningSessionId: null };
    wirings.set(branch, wiring);
  }
  return wiring;
}
