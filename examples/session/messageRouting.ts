// routeMessagePersistence(): send one branch's messages to your own writer through the bus.
import assert from "node:assert/strict";
import { HookPoint, Session, routeMessagePersistence, unrouteMessagePersistence } from "@hooklens/runtime";

const session = new Session();
const branch = session.defaultBranch!;
const saved: string[] = [];

const handler = routeMessagePersistence(session, branch, async (message) => void saved.push(String(message.content)));
const sibling = session.newBranch(); // included after routing created the bus, so it has the bus too
assert.deepEqual(session.hooks.handlersFor(HookPoint.MESSAGE_ADD), [handler]); // persistMessage removed
assert.equal(branch.hooks, session.hooks); // the bus is attached, even to the early default branch

await branch.addMessageAsync({ role: "user", content: "mine" });
sibling.addMessage({ role: "user", content: "not routed" }); // other branches are filtered out
console.log(saved); // ["mine"]

unrouteMessagePersistence(branch, handler);
await branch.addMessageAsync({ role: "user", content: "after teardown" });
assert.deepEqual(saved, ["mine"]);
