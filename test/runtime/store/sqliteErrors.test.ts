import { writeFileSync } from "node:fs";
import { Database } from "node-sqlite3-wasm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  HookLensError,
  NewerSchemaError,
  NotASignalDatabaseError,
  SIGNAL_DB_SCHEMA_VERSION,
  SignalStoreMissingError,
  SignalStoreUnwritableError,
  SqliteSignalStore,
} from "@hooklens/runtime";
import { createTempDir } from "../../helpers/tempDir.js";

let temp: ReturnType<typeof createTempDir>;
beforeEach(() => (temp = createTempDir("hooklens-sqlite-errors-")));
afterEach(() => temp.dispose());

/** Writes a SQLite file directly with the driver, to fake what another program or version left. */
function sqliteFile(name: string, sql: string): string {
  const path = temp.path(name);
  const db = new Database(path);
  db.exec(sql);
  db.close();
  return path;
}

async function openError(path: string, readOnly = false): Promise<Error> {
  const error = await SqliteSignalStore.open(path, { readOnly }).then(
    (store) => {
      store.close();
      return null;
    },
    (caught: unknown) => caught,
  );
  if (!(error instanceof Error)) throw new Error(`opening ${path} did not fail`);
  return error;
}

describe("SqliteSignalStore.open refuses what it cannot use, naming the file", () => {
  it("a file that is not a SQLite database", async () => {
    const path = temp.path("garbage.db");
    writeFileSync(path, "this is not a database, just text that is long enough to have a header\n".repeat(80));
    for (const readOnly of [false, true]) {
      const error = await openError(path, readOnly);
      expect(error).toBeInstanceOf(NotASignalDatabaseError);
      expect(error).toBeInstanceOf(HookLensError);
      expect(error.message).toContain(path);
      expect(error.message).toContain("not a SQLite database");
    }
  });

  it("a SQLite database of another program", async () => {
    const path = sqliteFile("other.db", "CREATE TABLE invoices (id INTEGER)");
    const error = await openError(path);
    expect(error).toBeInstanceOf(NotASignalDatabaseError);
    expect(error.message).toBe(`${path} is a SQLite database but not a HookLens signal store`);
  });

  it("a signal database written by a newer schema version", async () => {
    const path = temp.path("newer.db");
    (await SqliteSignalStore.open(path)).close();
    sqliteFile("newer.db", `PRAGMA user_version = ${SIGNAL_DB_SCHEMA_VERSION + 1}`);
    for (const readOnly of [false, true]) {
      const error = await openError(path, readOnly);
      expect(error).toBeInstanceOf(NewerSchemaError);
      expect(error).toMatchObject({ path, foundVersion: SIGNAL_DB_SCHEMA_VERSION + 1, supportedVersion: SIGNAL_DB_SCHEMA_VERSION });
      expect(error.message).toContain(path);
    }
  });

  it("a location where the file cannot be created", async () => {
    writeFileSync(temp.path("a-file"), "");
    const path = temp.path("a-file/signals.db");
    const error = await openError(path);
    expect(error).toBeInstanceOf(SignalStoreUnwritableError);
    expect(error.message).toContain(path);
  });

  it("a missing file opened read-only (and does not create it)", async () => {
    const path = temp.path("absent.db");
    const error = await openError(path, true);
    expect(error).toBeInstanceOf(SignalStoreMissingError);
    expect(error.message).toBe(`no signal database at ${path}`);
  });

  it("accepts an empty file: read-only it has no sessions, for writing it gets the schema", async () => {
    const path = temp.path("empty.db");
    writeFileSync(path, "");
    const reader = await SqliteSignalStore.open(path, { readOnly: true });
    expect(reader.listSessions()).toEqual([]);
    reader.close();
    const writer = await SqliteSignalStore.open(path);
    writer.insertSessionSignal({ sessionId: "s", kind: "Signal", opId: "", ts: 1, payload: {} });
    expect(writer.listSessions()).toHaveLength(1);
    writer.close();
  });
});
