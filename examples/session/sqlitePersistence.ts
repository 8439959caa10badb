// The embedded default: bindDbPersistence(id) without a store writes to the SQLite file
// .hooklens/signals.db (or $HOOKLENS_DB), but only when that file already exists.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Session, SqliteSignalStore, closeEmbeddedSignalStores } from "@hooklens/runtime";

const folder = mkdtempSync(join(tmpdir(), "hooklens-example-"));
const dbPath = join(folder, "signals.db");
process.env["HOOKLENS_DB"] = dbPath;

// Opt in by creating the file: opening a SqliteSignalStore creates it with its schema.
(await SqliteSignalStore.open(dbPath)).close();

const session = new Session();
session.observer.bindDbPersistence(session.id); // no store given: the default file
await session.emit({ step: "plan" });
await session.emit({ step: "act" });
await closeEmbeddedSignalStores(); // writes what is queued; a normal process exit does it too

// Read it back, as `hooklens show <sessionId>` does.
const store = await SqliteSignalStore.open(dbPath, { readOnly: true });
const rows = store.listSessionSignals(session.id);
for (const row of rows) console.log(row.kind, JSON.stringify(row.payload["data"]));
assert.deepEqual(
  rows.map((row) => row.payload["data"]),
  [{ step: "plan" }, { step: "act" }],
);
assert.equal(store.listSessions()[0]!.signalCount, 2);
store.close();
rmSync(folder, { recursive: true, force: true });
