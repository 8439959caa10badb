import { resolve } from "node:path";
import {
  PostgresSignalStore,
  SignalStoreError,
  SignalStoreMissingError,
  SqliteSignalStore,
  defaultSignalDbPath,
  isPostgresUrl,
  type RecordedSession,
  type SessionSignalRecord,
} from "@hooklens/runtime";

/** A problem the user must fix (missing or unreadable database, unknown session): exit code 2. */
export class RecordedDbError extends Error {
  override name = "RecordedDbError";
}

/** What `sessions` and `show` read, whichever database holds the recording. */
export interface RecordedDb {
  /** The file, or the PostgreSQL URL without its password: safe to print. */
  readonly name: string;
  listSessions(): Promise<RecordedSession[]>;
  listSessionSignals(sessionId: string): Promise<SessionSignalRecord[]>;
  close(): Promise<void>;
}

/**
 * Opens a recorded signal database for reading: `--db` if given, else the runtime's default
 * (`$HOOKLENS_DB` or `.hooklens/signals.db` under the working directory). A `postgres://` or
 * `postgresql://` URL selects PostgreSQL, anything else is a SQLite file. Never creates anything.
 */
export async function openRecordedDb(dbOption: string | undefined): Promise<RecordedDb> {
  const location = dbOption ?? defaultSignalDbPath();
  try {
    return isPostgresUrl(location) ? await openPostgres(location) : await openSqlite(resolve(location));
  } catch (error) {
    if (error instanceof SignalStoreMissingError && !isPostgresUrl(location)) {
      throw new RecordedDbError(
        `no signal database at ${error.path}; a program records one when that file exists (see docs/runtime/session.md), or pass --db <file>`,
      );
    }
    if (error instanceof SignalStoreError) throw new RecordedDbError(error.message);
    throw error;
  }
}

async function openSqlite(path: string): Promise<RecordedDb> {
  const store = await SqliteSignalStore.open(path, { readOnly: true });
  return {
    name: store.path,
    listSessions: async () => store.listSessions(),
    listSessionSignals: async (sessionId) => store.listSessionSignals(sessionId),
    close: async () => store.close(),
  };
}

async function openPostgres(url: string): Promise<RecordedDb> {
  const store = await PostgresSignalStore.open(url, { readOnly: true });
  return {
    name: store.target,
    listSessions: () => store.listSessions(),
    listSessionSignals: (sessionId) => store.listSessionSignals(sessionId),
    close: () => store.close(),
  };
}

/** Runs `use` on the opened database and closes it afterwards. */
export async function withRecordedDb<T>(dbOption: string | undefined, use: (db: RecordedDb) => Promise<T>): Promise<T> {
  const db = await openRecordedDb(dbOption);
  try {
    return await use(db);
  } catch (error) {
    if (error instanceof SignalStoreError) throw new RecordedDbError(error.message);
    throw error;
  } finally {
    await db.close();
  }
}
