// Built-in persistence handlers, written against a SessionStateStore.
import assert from "node:assert/strict";
import { HookPoint, InMemorySessionStateStore, Session, setSessionStateStore } from "@hooklens/runtime";

const store = new InMemorySessionStateStore();
const previous = setSessionStateStore(store);
try {
  const session = new Session();
  store.createSession(session.id);

  await session.hooks.emit(HookPoint.SESSION_START, { sessionId: session.id, model: "gpt-4o" });
  await session.hooks.emit(HookPoint.SESSION_END, { sessionId: session.id, status: "completed", inputTokens: 900 });
  const row = store.sessions.get(session.id)!;
  console.log(row.status, row.statusReasonCode, row.model, row.inputTokens); // completed COMPLETED_OK gpt-4o 900

  // The trap: a Branch's MESSAGE_ADD carries no sessionId, so the default persistMessage
  // throws; the bus logs that and carries on, and nothing is stored.
  const branch = session.newBranch(); // included after `hooks` exists, so it has the bus
  branch.onMessageAdded.push(branch.persistViaBus);
  await branch.addMessageAsync({ role: "user", content: "hello" });
  assert.equal(store.messages.size, 0);
} finally {
  setSessionStateStore(previous);
}
