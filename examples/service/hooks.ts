// The three service phases around one call, with no Session anywhere.
import assert from "node:assert/strict";
import { classNameOf, EventStatus, HookRegistry, IModel, ScriptedEndpoint, globalHookLog, type APICalling } from "@hooklens/runtime";

const registry = new HookRegistry();

// pre_event_create gets the event class; its return value is ignored.
registry.preEventCreateHook((eventClass) => console.log(`creating an ${classNameOf(eventClass)}`));

// pre_invocation guards the call: throwing blocks the provider call, whatever the exit flag.
registry.preInvoke((event) => {
  const call = event as APICalling;
  const messages = call.payload["messages"] as { content: string }[];
  if (messages.some((m) => m.content.includes("password"))) throw new Error("refusing to send a password");
});

// post_invocation runs after the provider answered (or failed); with exit off its own failure is
// only logged. The response is not on the event yet: read it from the call after invoke().
let finished = 0;
registry.postInvoke(() => void finished++);

const model = new IModel({ endpoint: new ScriptedEndpoint(), hookRegistry: registry });

const ok = await model.invoke({ messages: [{ role: "user", content: "hello" }] });
assert.equal(ok.status, EventStatus.COMPLETED);
console.log("reply:", (ok.response as { choices: { message: { content: string } }[] }).choices[0]!.message.content);

// A blocked call does not reject: it ends FAILED and says why.
const blocked = await model.invoke({ messages: [{ role: "user", content: "my password is hunter2" }] });
assert.equal(blocked.status, EventStatus.FAILED);
console.log("blocked:", (blocked.execution.error as Error).message);
assert.equal((blocked.execution.error as Error).message, "Pre-invoke hook cancelled: refusing to send a password");

// A blocked call never reached the provider, nor its post hook.
assert.equal(finished, 1);

// Passing hook events go to the bounded hook log; the blocking pre hook did not.
console.log(globalHookLog.entries().map((entry) => `${entry.hookType}:${entry.status}`).join(" "));
assert.deepEqual(
  globalHookLog.entries().map((entry) => entry.hookType),
  ["pre_event_create", "pre_invocation", "post_invocation", "pre_event_create"],
);
