// Session ownership: lazy observer and bus, including and removing branches, the no-backfill trap.
import assert from "node:assert/strict";
import { Branch, Session } from "@hooklens/runtime";

const session = new Session();
assert.equal(session.observer, session.observer); // created once, the same object every time

// The default branch was included during construction, before any bus existed.
const bus = session.hooks;
assert.equal(session.defaultBranch!.hooks, null); // no backfill: it never got the bus
assert.equal(session.newBranch().hooks, bus); // branches included from now on get it

// Including the early branch again attaches the bus that exists now.
session.includeBranches(session.defaultBranch!);
assert.equal(session.defaultBranch!.hooks, bus);

// A branch belongs to one session at a time.
const other = new Session();
const branch = new Branch();
other.includeBranches(branch);
assert.throws(() => session.includeBranches(branch), /already owned by session/);
other.removeBranch(branch);
session.includeBranches(branch);
console.log("branch now owned by", branch.owningSessionId === session.id ? "session" : "someone else");
