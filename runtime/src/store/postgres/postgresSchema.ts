import { InvalidValueError } from "../../shared/errors.js";
import type { PgPool, PgPoolClient } from "./postgresDriver.js";
import { NewerSchemaError, NotASignalDatabaseError } from "../errors.js";

/** The table layout this code writes. Bump it with a migration step when the tables change. */
export const POSTGRES_SIGNAL_SCHEMA_VERSION = 1;
export const DEFAULT_POSTGRES_SCHEMA = "public";
export const DEFAULT_POSTGRES_TABLE = "hooklens_session_signals";

/** Where the signals live: a table and, beside it, `<table>_meta` holding the schema version. */
export interface SignalTableNames {
  schema: string;
  table: string;
}

/** The names quoted for SQL, checked once so no user-supplied text is ever spliced in raw. */
export interface QuotedNames {
  schema: string;
  table: string;
  meta: string;
  index: string;
  /** `schema.table` unquoted, for messages and the creation lock. */
  display: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** PostgreSQL truncates identifiers at 63 bytes; the `_meta` and `_by_session` suffixes must fit. */
const MAX_TABLE_NAME = 63 - "_by_session".length;

export function quoteNames({ schema, table }: SignalTableNames): QuotedNames {
  for (const [what, name, max] of [["schema", schema, 63], ["table", table, MAX_TABLE_NAME]] as const) {
    if (!IDENTIFIER.test(name) || name.length > max) {
      throw new InvalidValueError(`invalid PostgreSQL ${what} name ${JSON.stringify(name)}: use letters, digits and _ (at most ${max})`);
    }
  }
  const q = (name: string): string => `"${name}"`;
  return {
    schema: q(schema),
    table: `${q(schema)}.${q(table)}`,
    meta: `${q(schema)}.${q(`${table}_meta`)}`,
    index: q(`${table}_by_session`),
    display: `${schema}.${table}`,
  };
}

function createV1(names: QuotedNames): string {
  return `
CREATE TABLE ${names.table} (
  id bigserial PRIMARY KEY,
  session_id text NOT NULL,
  kind text NOT NULL,
  op_id text NOT NULL DEFAULT '',
  ts double precision NOT NULL,
  payload jsonb NOT NULL
);
CREATE INDEX ${names.index} ON ${names.table} (session_id, id);
CREATE TABLE ${names.meta} (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  schema_version integer NOT NULL
);
INSERT INTO ${names.meta} (schema_version) VALUES (${POSTGRES_SIGNAL_SCHEMA_VERSION});
`;
}

/** What the database holds before this store touches it. */
export type SchemaState = "empty" | "current";

type Queryable = Pick<PgPoolClient, "query">;

/**
 * Reads the version row: no tables may be created, a HookLens table at this version is used as
 * is, anything else (a newer version, a same-named table someone else made) is refused.
 */
export async function inspectSchema(db: Queryable, names: QuotedNames, target: string): Promise<SchemaState> {
  const { rows } = await db.query("SELECT to_regclass($1) IS NOT NULL AS has_table, to_regclass($2) IS NOT NULL AS has_meta", [names.table, names.meta]);
  const { has_table: hasTable, has_meta: hasMeta } = rows[0] ?? {};
  if (!hasTable && !hasMeta) return "empty";
  if (!hasTable || !hasMeta) {
    throw new NotASignalDatabaseError(target, `${target} has a table ${names.display} (or its _meta table) that HookLens did not create`);
  }
  const versions = await db.query(`SELECT schema_version FROM ${names.meta}`);
  const version = Number(versions.rows[0]?.["schema_version"] ?? 0);
  if (version > POSTGRES_SIGNAL_SCHEMA_VERSION) throw new NewerSchemaError(target, version, POSTGRES_SIGNAL_SCHEMA_VERSION);
  if (version < 1) throw new NotASignalDatabaseError(target, `${names.display} in ${target} has no valid HookLens schema version (found ${version})`);
  return "current";
}

/**
 * Creates the tables when missing. A transaction-scoped advisory lock keyed on the table name
 * makes two processes opening the same new database take turns, so only one creates them.
 */
export async function ensureSchema(pool: PgPool, names: QuotedNames, target: string): Promise<void> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query("BEGIN");
    try {
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`hooklens:${names.display}`]);
      if ((await inspectSchema(client, names, target)) === "empty") {
        // Only when missing: even CREATE SCHEMA IF NOT EXISTS needs a privilege a table writer may lack.
        const { rows } = await client.query("SELECT to_regnamespace($1) IS NULL AS missing", [names.schema]);
        if (rows[0]?.["missing"]) await client.query(`CREATE SCHEMA ${names.schema}`);
        await client.query(createV1(names));
      }
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => (broken = true));
      throw error;
    }
  } finally {
    client.release(broken);
  }
}
