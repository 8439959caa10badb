// Behaviour reproduced as built: each of these surprises a hook author. `hooklens check` reports
// traps 1 (HL011) and 3 (HL010) below; they are kept here on purpose, to show what happens.
import assert from "node:assert/strict";
import { EventStatus, IModel, ScriptedEndpoint, type APICalling } from "@hooklens/runtime";

const ask = { messages: [{ role: "user", content: "hi" }] };

// 1. Returning an Error does not block: only throwing does.
const returnsError = new IModel({
  endpoint: new ScriptedEndpoint(),
  hookRegistry: { hooks: { pre_invoke: () => new Error("meant to block") } },
});
const notBlocked = await returnsError.invoke(ask);
assert.equal(notBlocked.status, EventStatus.COMPLETED);
assert.equal(notBlocked.preInvokeHookEvent!.status, EventStatus.COMPLETED);
console.log("returned Error: call", notBlocked.status);

// 2. Any two-item array a hook returns is read as [value, error]: the hook FAILS.
const returnsPair = new IModel({
  endpoint: new ScriptedEndpoint(),
  hookRegistry: { hooks: { pre_invoke: () => ["ok", "fine"] } },
});
const pair = await returnsPair.invoke(ask);
assert.equal(pair.preInvokeHookEvent!.status, EventStatus.FAILED);
assert.equal(pair.status, EventStatus.FAILED);
console.log("returned pair: call", pair.status);

// 3. The pre-create hook cannot substitute the event: its return value is ignored.
const substitute = { not: "used" };
const creates = new IModel({ endpoint: new ScriptedEndpoint(), hookRegistry: { hooks: { pre_event_create: () => substitute } } });
const created = await creates.createEvent(ask);
assert.notEqual(created as unknown, substitute);
console.log("pre-create return ignored:", created.constructor.name);

// 4. A post hook sees the call before its response is recorded.
let seenInPost: unknown = "unset";
const peeks = new IModel({ endpoint: new ScriptedEndpoint(), hookRegistry: { hooks: { post_invoke: (event) => void (seenInPost = (event as APICalling).response) } } });
const peeked = await peeks.invoke(ask);
assert.equal(seenInPost, null);
assert.notEqual(peeked.response, null);
console.log("post hook saw response:", seenInPost, "/ after invoke:", peeked.status);

// 5. A failing post hook cannot take back streamed chunks: the stream still completes.
const streaming = new IModel({
  endpoint: new ScriptedEndpoint({ script: ["already sent"] }),
  hookRegistry: { hooks: { post_invoke: () => Promise.reject(new Error("too late")) } },
  exitHook: true,
});
const call = await streaming.createEvent({ ...ask, stream: true });
let chunks = 0;
for await (const _chunk of streaming.stream({ apiCall: call })) chunks++;
assert.equal(call.status, EventStatus.COMPLETED);
assert.equal(call.postInvokeHookEvent!.status, EventStatus.ABORTED);
console.log(`post-stream failure: ${chunks} chunks delivered, call ${call.status}`);
