// bindDbPersistence(): every dispatched signal as a JSON-safe row, capped at 16 KiB.
import assert from "node:assert/strict";
import { InMemorySignalStore, Message, MessageAdded, PAYLOAD_BYTE_CAP, Session, Signal } from "@hooklens/runtime";

const session = new Session();
const store = new InMemorySignalStore();
session.observer.bindDbPersistence(session.id, store);

await session.emit({ step: "plan" });
await session.emit(new MessageAdded({ data: new Message({ role: "user", content: "private text" }) }));
await session.emit(new Signal({ data: "x".repeat(100_000) }));
// Rows are written in batches after emit returns; flush() waits for them.
await session.observer.flush();

const rows = await store.listSessionSignals(session.id);
for (const row of rows) console.log(row.kind, JSON.stringify(row.payload).slice(0, 80));

// A MessageAdded row references the message; the body is never stored.
assert.ok(!JSON.stringify(rows[1]).includes("private text"));
// An oversized payload becomes {truncated, originalBytes, data} and stays under the cap.
assert.equal(rows[2]!.payload["truncated"], true);
assert.ok(Buffer.byteLength(JSON.stringify(rows[2]!.payload)) <= PAYLOAD_BYTE_CAP);

session.observer.unbindDbPersistence();
