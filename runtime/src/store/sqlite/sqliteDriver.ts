/**
 * Loads node-sqlite3-wasm on first use. It is imported lazily because requiring it compiles a
 * 1.2 MB WebAssembly module: programs that never persist to SQLite should not pay for it.
 * The package finds its `.wasm` next to its own JS (`__dirname`), so every build keeps it
 * external and resolves it from node_modules rather than bundling it.
 */

/** The part of node-sqlite3-wasm's Database this store uses. */
export interface SqliteDatabase {
  readonly isOpen: boolean;
  readonly inTransaction: boolean;
  exec(sql: string): void;
  run(sql: string, values?: SqliteBindValues): { changes: number; lastInsertRowid: number | bigint };
  all(sql: string, values?: SqliteBindValues): SqliteRow[];
  get(sql: string, values?: SqliteBindValues): SqliteRow | null;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

/** A prepared statement, reused across runs until finalized. */
export interface SqliteStatement {
  run(values?: SqliteBindValues): { changes: number; lastInsertRowid: number | bigint };
  finalize(): void;
}

export type SqliteValue = number | bigint | string | Uint8Array | null;
export type SqliteRow = Record<string, SqliteValue>;
export type SqliteBindValues = SqliteValue | boolean | Array<SqliteValue | boolean> | Record<string, SqliteValue | boolean>;

export type OpenDatabase = (path: string, options: { readOnly: boolean }) => SqliteDatabase;

interface DriverModule {
  Database: new (path: string, options?: { fileMustExist?: boolean; readOnly?: boolean }) => SqliteDatabase;
}

let driver: Promise<OpenDatabase> | null = null;

/** Resolves to a function that opens a database file; the module is loaded once per process. */
export function loadSqliteDriver(): Promise<OpenDatabase> {
  driver ??= import("node-sqlite3-wasm").then((loaded) => {
    // An ESM import of this CommonJS package may expose its exports under `default` only.
    const namespace = loaded as unknown as Partial<DriverModule> & { default?: Partial<DriverModule> };
    const Database = namespace.Database ?? namespace.default?.Database;
    if (typeof Database !== "function") throw new Error("node-sqlite3-wasm did not export Database");
    return (path, { readOnly }) => new Database(path, { readOnly, fileMustExist: readOnly });
  });
  driver.catch(() => (driver = null));
  return driver;
}
