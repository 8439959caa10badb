import { HookLensError } from "../shared/errors.js";

/** A signal store could not be used; `path` names the database: the SQLite file, or a PostgreSQL URL without its password. */
export class SignalStoreError extends HookLensError {
  override name = "SignalStoreError";
  constructor(
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The file exists but is not a SQLite database, or is one that HookLens did not write. */
export class NotASignalDatabaseError extends SignalStoreError {
  override name = "NotASignalDatabaseError";
}

/** The file was written by a newer HookLens whose schema this version cannot read safely. */
export class NewerSchemaError extends SignalStoreError {
  override name = "NewerSchemaError";
  constructor(
    path: string,
    readonly foundVersion: number,
    readonly supportedVersion: number,
  ) {
    super(
      path,
      `${path} uses signal schema version ${foundVersion}, newer than the ${supportedVersion} this HookLens understands; upgrade @hooklens/runtime`,
    );
  }
}

/** The file or its folder cannot be created or written (read-only location, missing permission). */
export class SignalStoreUnwritableError extends SignalStoreError {
  override name = "SignalStoreUnwritableError";
}

/** Another process held the database lock for longer than this store was willing to wait. */
export class SignalStoreLockedError extends SignalStoreError {
  override name = "SignalStoreLockedError";
}

/** A read-only open of a file that does not exist. */
export class SignalStoreMissingError extends SignalStoreError {
  override name = "SignalStoreMissingError";
}

/** The store was closed; it accepts no more writes or reads. */
export class SignalStoreClosedError extends SignalStoreError {
  override name = "SignalStoreClosedError";
}

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
      `${path} stayed locked by another process while ${doing}; if no HookLens program is running, remove the stale lock folder ${path}.lock`,
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
