// The exit policy decides whether a failing post hook fails the call; timeouts end hooks FAILED.
import assert from "node:assert/strict";
import { EventStatus, HookTimeoutError, IModel, ScriptedEndpoint } from "@hooklens/runtime";

const auditFails = () => {
  throw new Error("audit store unreachable");
};
const model = new IModel({
  endpoint: new ScriptedEndpoint({ script: ["done"] }),
  hookRegistry: { hooks: { post_invoke: auditFails } },
});
const ask = { messages: [{ role: "user", content: "go" }] };

// exit off (the default): the post hook is ABORTED, the call keeps its result.
const lenient = await model.invoke(ask);
assert.equal(lenient.status, EventStatus.COMPLETED);
assert.equal(lenient.postInvokeHookEvent!.status, EventStatus.ABORTED);
console.log("exit off:", lenient.status, "/ post hook", lenient.postInvokeHookEvent!.status);

// exit on for this phase: the handler's own error becomes the call's error.
const strict = await model.invoke({ ...ask, postInvokeEventExitHook: true });
assert.equal(strict.status, EventStatus.FAILED);
console.log("exit on:", strict.status, "/", (strict.execution.error as Error).message);

// A hook that outlives its timeout (seconds) ends FAILED; a pre hook that fails blocks the call.
const slow = new IModel({
  endpoint: new ScriptedEndpoint(),
  hookRegistry: { hooks: { pre_invoke: (_event, params) => new Promise((resolve) => params.signal?.addEventListener("abort", resolve)) } },
});
const timedOut = await slow.invoke({ ...ask, preInvokeEventHookTimeout: 0.05 });
assert.equal(timedOut.preInvokeHookEvent!.status, EventStatus.FAILED);
assert.ok(timedOut.preInvokeHookEvent!.exitCause instanceof HookTimeoutError);
console.log("timeout:", (timedOut.execution.error as Error).message);
