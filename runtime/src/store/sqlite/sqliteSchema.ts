import type { SqliteDatabase } from "./sqliteDriver.js";
import { NewerSchemaError, NotASignalDatabaseError } from "../errors.js";

/** The schema this code writes. Bump it with a migration step below when the tables change. */
export const SIGNAL_DB_SCHEMA_VERSION = 1;
/** `PRAGMA application_id` marking a file as a HookLens signal store ("HKLS"). */
export const SIGNAL_DB_APPLICATION_ID = 0x484b4c53;

const CREATE_V1 = `
CREATE TABLE IF NOT EXISTS session_signals (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  op_id TEXT NOT NULL DEFAULT '',
  ts REAL NOT NULL,
  payload TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS session_signals_by_session ON session_signals (session_id, id);
PRAGMA application_id = ${SIGNAL_DB_APPLICATION_ID};
PRAGMA user_version = ${SIGNAL_DB_SCHEMA_VERSION};
`;

const INSPECT = `SELECT (SELECT user_version FROM pragma_user_version) AS version,
  (SELECT application_id FROM pragma_application_id) AS application_id,
  (SELECT count(*) FROM sqlite_schema WHERE type = 'table') AS tables`;

/** What a file holds before this store touches it. */
export type SchemaState = "empty" | "current";

/**
 * Reads the file's version and marks: an empty database (no tables) may be initialised, a
 * HookLens one at this version is used as is, anything else is refused with a specific error.
 */
export function inspectSchema(db: SqliteDatabase, path: string): SchemaState {
  // One statement, so the three values come from one snapshot even while another process creates the schema.
  const row = db.get(INSPECT) ?? {};
  const version = Number(row["version"] ?? 0);
  const applicationId = Number(row["application_id"] ?? 0);
  const tables = Number(row["tables"] ?? 0);
  if (version === 0 && applicationId === 0 && tables === 0) return "empty";
  if (applicationId !== SIGNAL_DB_APPLICATION_ID) {
    throw new NotASignalDatabaseError(path, `${path} is a SQLite database but not a HookLens signal store`);
  }
  if (version > SIGNAL_DB_SCHEMA_VERSION) throw new NewerSchemaError(path, version, SIGNAL_DB_SCHEMA_VERSION);
  if (version < 1) throw new NotASignalDatabaseError(path, `${path} has no valid HookLens schema version (found ${version})`);
  return "current";
}

/**
 * Creates the schema on an empty file. Runs inside an IMMEDIATE transaction and re-inspects
 * there, so two processes opening the same new file do not both create it.
 */
export function ensureSchema(db: SqliteDatabase, path: string): void {
  if (inspectSchema(db, path) === "current") return;
  db.exec("BEGIN IMMEDIATE");
  try {
    if (inspectSchema(db, path) === "empty") db.exec(CREATE_V1);
    db.exec("COMMIT");
  } catch (error) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw error;
  }
}
