// Branch messages and their callbacks.
import assert from "node:assert/strict";
import { AsyncCallbackOnSyncPathError, MessageAdded, Session } from "@hooklens/runtime";

const session = new Session();
const branch = session.newBranch();

branch.onMessageAdded.push((message) => console.log(`added ${message.role}: ${String(message.content)}`));
branch.addMessage({ role: "system", content: "Be brief." });

// A failing callback does not stop the others; its error is raised after they all ran.
branch.onMessageAdded.push(() => {
  throw new Error("callback failed");
});
assert.throws(() => branch.addMessage({ role: "user", content: "hi" }), /callback failed/);
branch.onMessageAdded.pop();

// An async callback needs the async path: the sync one refuses before storing anything.
branch.onMessageAdded.push(async function saveRemotely() {});
assert.throws(() => branch.addMessage({ role: "user", content: "lost" }), AsyncCallbackOnSyncPathError);
await branch.addMessageAsync({ role: "assistant", content: "Hello." });

// Each message was also recorded as a MessageAdded signal, in the background.
await branch.drainSignals();
console.log(session.observer.byType(MessageAdded).length, "MessageAdded signals"); // 3
