/**
 * Loads the `pg` driver on first use. It is an optional peer dependency: only programs that
 * persist to PostgreSQL install it, so it is imported lazily and every build keeps it external.
 * The interfaces below are the small part of pg this store uses, so the runtime's public types
 * never depend on `@types/pg`.
 */
import { SignalStoreDriverMissingError } from "../errors.js";

/** Connection settings as pg's `PoolConfig` takes them (any PoolConfig object fits). */
export interface PostgresConnectionConfig {
  connectionString?: string;
  host?: string;
  port?: number;
  user?: string;
  password?: string | (() => string | Promise<string>);
  database?: string;
  ssl?: boolean | object;
  /** Largest number of connections the store's pool opens (default 2). */
  max?: number;
  /** How long one connection attempt may take, in ms (default 5,000). */
  connectionTimeoutMillis?: number;
  idleTimeoutMillis?: number;
  application_name?: string;
}

export interface PgQueryResult {
  rows: Array<Record<string, unknown>>;
}

export interface PgPoolClient {
  query(sql: string, values?: readonly unknown[]): Promise<PgQueryResult>;
  release(error?: Error | boolean): void;
}

/** A query pg prepares once per connection under `name` and reuses (same name, same text). */
export interface PgNamedQuery {
  name: string;
  text: string;
  values: readonly unknown[];
}

export interface PgPool {
  query(sql: string | PgNamedQuery, values?: readonly unknown[]): Promise<PgQueryResult>;
  connect(): Promise<PgPoolClient>;
  end(): Promise<void>;
  on(event: "error", listener: (error: Error) => void): unknown;
}

/** The connection parameters pg resolved (config, URL, PG* environment variables, defaults). */
export interface PgResolvedParameters {
  user?: string | null;
  host?: string | null;
  port?: number | string | null;
  database?: string | null;
  password?: unknown;
}

export interface PgDriver {
  Pool: new (config: PostgresConnectionConfig & { allowExitOnIdle?: boolean }) => PgPool;
  /** An unconnected client, only used to read what pg makes of a configuration. */
  Client: new (config: PostgresConnectionConfig) => PgResolvedParameters;
}

type Importer = () => Promise<unknown>;

let driver: Promise<PgDriver> | null = null;

/** Resolves to pg's Pool and Client; loaded once per process. `target` names the database in the error. */
export function loadPgDriver(target: string, importer: Importer = () => import("pg")): Promise<PgDriver> {
  driver ??= importer().then(
    (loaded) => {
      // pg is CommonJS: depending on the loader its exports sit on the namespace or under `default`.
      const namespace = loaded as Partial<PgDriver> & { default?: Partial<PgDriver> };
      const Pool = namespace.Pool ?? namespace.default?.Pool;
      const Client = namespace.Client ?? namespace.default?.Client;
      if (typeof Pool !== "function" || typeof Client !== "function") throw new Error("the pg module did not export Pool and Client");
      return { Pool, Client };
    },
    (error: unknown) => {
      if (!isModuleNotFound(error)) throw error;
      throw new SignalStoreDriverMissingError(
        target,
        `install pg to use PostgreSQL persistence (npm install pg): it is an optional peer dependency of @hooklens/runtime, needed for ${target}`,
        { cause: error },
      );
    },
  );
  driver.catch(() => (driver = null));
  return driver;
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}
