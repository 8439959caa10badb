import { NotASignalDatabaseError, SignalStoreError, SignalStoreLockedError, SignalStoreUnwritableError } from "../errors.js";

const BUSY = /database is locked|database table is locked|SQLITE_BUSY/i;
const NOT_A_DB = /file is not a database|database disk image is malformed|SQLITE_NOTADB|SQLITE_CORRUPT/i;
const READ_ONLY = /readonly database|read-only|unable to open database file|Could not open the database|disk I\/O error|SQLITE_CANTOPEN|SQLITE_READONLY/i;

/** True when a driver error means "someone else holds the lock, try again later". */
export function isBusyError(error: unknown): boolean {
  return error instanceof Error && BUSY.test(error.message);
}

/**
 * Turns a driver error (node-sqlite3-wasm only gives a message) into the specific store error,
 * naming the file so the user knows which one to fix. Unknown errors are wrapped as they are.
 */
export function classifySqliteError(error: unknown, path: string, doing: string): SignalStoreError {
  if (error instanceof SignalStoreError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (NOT_A_DB.test(message)) {
    return new NotASignalDatabaseError(path, `${path} is not a SQLite database (${message})`, { cause: error });
  }
  if (BUSY.test(message)) {
    return new SignalStoreLockedError(
      path,
      `${path} stayed locked by another process while ${doing}; a lock left by a HookLens process that has exited is removed automatically, so a program still using the file (or one HookLens cannot see) holds ${path}.lock`,
      { cause: error },
    );
  }
  if (READ_ONLY.test(message)) {
    return new SignalStoreUnwritableError(path, `cannot write ${path} while ${doing}: ${message} (read-only location or missing permission?)`, {
      cause: error,
    });
  }
  return new SignalStoreError(path, `SQLite error on ${path} while ${doing}: ${message}`, { cause: error });
}
