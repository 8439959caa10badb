// emit(): store, gate, route, then sync subscribers and async subscribers.
import assert from "node:assert/strict";
import { SessionObserver, Signal } from "@hooklens/runtime";

const observer = new SessionObserver();
observer.route((payload) => typeof payload === "number", { into: "numbers" });
observer.observe(Signal, async () => "async result");
observer.observe(Signal, () => "sync result");

// Sync results come first, then async results (which ran concurrently).
assert.deepEqual(await observer.emit(42), ["sync result", "async result"]);
assert.deepEqual(observer.stream("numbers").map((s) => s.data), [42]);

// A denied event is stored but reaches no route and no subscriber.
observer.gate((payload) => payload !== "secret");
assert.deepEqual(await observer.emit("secret"), []);
console.log("stored:", observer.flow.items.map((s) => s.data)); // [42, "secret"]

// Subscriber errors are not isolated: emit rejects with them.
observer.observe(Signal, () => {
  throw new Error("subscriber bug");
});
await assert.rejects(observer.emit("next"), /subscriber bug/);
