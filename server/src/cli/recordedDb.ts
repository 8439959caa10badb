import { resolve } from "node:path";
import { SignalStoreError, SignalStoreMissingError, SqliteSignalStore, defaultSignalDbPath } from "@hooklens/runtime";

/** A problem the user must fix (missing or unreadable database, unknown session): exit code 2. */
export class RecordedDbError extends Error {
  override name = "RecordedDbError";
}

/**
 * Opens a recorded signal database for reading: `--db` if given, else the runtime's default
 * (`$HOOKLENS_DB` or `.hooklens/signals.db` under the working directory). Never creates it.
 */
export async function openRecordedDb(dbOption: string | undefined): Promise<SqliteSignalStore> {
  const path = dbOption === undefined ? defaultSignalDbPath() : resolve(dbOption);
  try {
    return await SqliteSignalStore.open(path, { readOnly: true });
  } catch (error) {
    if (error instanceof SignalStoreMissingError) {
      throw new RecordedDbError(
        `no signal database at ${error.path}; a program records one when that file exists (see docs/runtime/session.md), or pass --db <file>`,
      );
    }
    if (error instanceof SignalStoreError) throw new RecordedDbError(error.message);
    throw error;
  }
}

/** Runs `use` on the opened database and closes it afterwards. */
export async function withRecordedDb<T>(dbOption: string | undefined, use: (store: SqliteSignalStore) => T): Promise<T> {
  const store = await openRecordedDb(dbOption);
  try {
    return use(store);
  } catch (error) {
    if (error instanceof SignalStoreError) throw new RecordedDbError(error.message);
    throw error;
  } finally {
    store.close();
  }
}
