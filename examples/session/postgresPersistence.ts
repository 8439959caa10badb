// A team's recordings in PostgreSQL: the same rows as the SQLite file, in a shared database.
// Run it with TEAM_SIGNALS_URL set to a database you may create a table in.
import assert from "node:assert/strict";
import { flushSignals, PostgresSignalStore, Session } from "@hooklens/runtime";

// A URL, or a pg PoolConfig object ({ host, port, user, password, database, ssl, max, ... }).
const store = await PostgresSignalStore.open(process.env["TEAM_SIGNALS_URL"]!, { table: "agent_signals" });
const session = new Session();
session.observer.bindDbPersistence(session.id, store);
await session.emit({ step: "plan" }); // ... run the agent ...
// Signals reach stores in batches off the emit call: hand over the last batch before closing.
await flushSignals();
await store.close(); // writes what is still queued, then ends the connection pool

// Read it back; a read-only store never creates anything.
const reader = await PostgresSignalStore.open(process.env["TEAM_SIGNALS_URL"]!, { table: "agent_signals", readOnly: true });
const rows = await reader.listSessionSignals(session.id);
console.log(rows.map((row) => `${row.kind} ${JSON.stringify(row.payload["data"])}`).join("\n"));
assert.deepEqual(
  rows.map((row) => row.payload["data"]),
  [{ step: "plan" }],
);
await reader.close();
