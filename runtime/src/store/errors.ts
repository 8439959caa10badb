// The errors every signal store raises; each names the database it is about.
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

/** The database exists but is not a signal database: not SQLite, or tables HookLens did not write. */
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

/**
 * The path cannot hold a database file: a folder, a named pipe, a socket, a device, a kernel file
 * (`/proc`, `/sys`: they report a size of 0 and still have content), or a symbolic link to
 * something missing or to one of these. Refused before anything is opened, so nothing waits on it.
 */
export class SignalStorePathError extends SignalStoreError {
  override name = "SignalStorePathError";
}

/** A read-only open of a file that does not exist. */
export class SignalStoreMissingError extends SignalStoreError {
  override name = "SignalStoreMissingError";
}

/** The store was closed; it accepts no more writes or reads. */
export class SignalStoreClosedError extends SignalStoreError {
  override name = "SignalStoreClosedError";
}

/** The PostgreSQL server could not be reached: refused, unknown host, timed out, shutting down. */
export class SignalStoreUnreachableError extends SignalStoreError {
  override name = "SignalStoreUnreachableError";
}

/** The server refused the credentials (wrong password, unknown user, no pg_hba.conf entry). */
export class SignalStoreAuthError extends SignalStoreError {
  override name = "SignalStoreAuthError";
}

/** PostgreSQL persistence was asked for but the optional `pg` package is not installed. */
export class SignalStoreDriverMissingError extends SignalStoreError {
  override name = "SignalStoreDriverMissingError";
}
