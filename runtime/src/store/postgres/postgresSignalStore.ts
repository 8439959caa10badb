import { getLogger } from "../../shared/log.js";
import { AsyncWriteBehindQueue } from "../queue/asyncWriteBehindQueue.js";
import { flushBeforeExit, forgetBeforeExit } from "../flushBeforeExit.js";
import { loadPgDriver, type PgPool, type PostgresConnectionConfig } from "./postgresDriver.js";
import { classifyPostgresError, isRetryableError } from "./postgresErrors.js";
import { insertStatement, insertValues, selectSessionStatement, selectSessionsStatement, type NamedStatement } from "./postgresRows.js";
import { recordedSessionFromRow, recordFromRow } from "../recordRows.js";
import {
  DEFAULT_POSTGRES_SCHEMA,
  DEFAULT_POSTGRES_TABLE,
  ensureSchema,
  inspectSchema,
  quoteNames,
  type QuotedNames,
} from "./postgresSchema.js";
import { describeConnectionString, describeTarget, scrub } from "./postgresTarget.js";
import type { RecordedSession, SessionSignalRecord, SignalStore } from "../signalStore.js";
import { SignalStoreClosedError, SignalStoreError, SignalStoreUnwritableError } from "../errors.js";
import type { EncodedSignal } from "../../session/pipeline/encodedSignal.js";
import { RowAdmission, type RowQueue } from "../rowSink.js";
import { rowBytes, rowFromRecord, type SignalRow } from "../signalRow.js";
import { optionsObject, requireName, requireObject } from "../../shared/arguments.js";

export type { PostgresConnectionConfig };

export interface PostgresSignalStoreOptions {
  /** Only read: nothing is created, writes are refused. */
  readOnly?: boolean;
  /** The schema holding the table (created if missing); default `public`. */
  schema?: string;
  /** The signal table; its version lives in `<table>_meta`. Default `hooklens_session_signals`. */
  table?: string;
  /** How long writes are retried while the server cannot be reached before they are dropped, in ms (default 30,000). */
  retryWindowMs?: number;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_POOL_SIZE = 2;

interface Settings {
  target: string;
  readOnly: boolean;
  names: QuotedNames;
  secret: unknown;
  retryWindowMs: number;
}

/**
 * A SignalStore in a PostgreSQL table, for a team that shares recorded runs. Payloads are `jsonb`,
 * a `bigserial` id keeps insertion order. Inserts are queued and written as one INSERT of the
 * whole batch per round (one prepared statement, reused), off the caller's stack; while the
 * server is unreachable the batch is retried with backoff for `retryWindowMs`, then dropped and
 * logged. `flush()` waits for the queue, reads wait for it first, `close()` writes what is left
 * and ends the pool, and a program that simply runs out of work has its queue written before it
 * exits.
 */
export class PostgresSignalStore implements SignalStore {
  /** The database as `postgres://user@host:port/database`: safe to print, never holds the password. */
  readonly target: string;
  /** `schema.table` the signals live in. */
  readonly table: string;
  readonly readOnly: boolean;
  readonly #pool: PgPool;
  readonly #names: QuotedNames;
  /** Prepared by each pooled connection on its first batch, then reused for every batch. */
  readonly #insert: NamedStatement;
  readonly #secret: unknown;
  readonly #queue: AsyncWriteBehindQueue<SignalRow>;
  readonly #rows: RowQueue;
  readonly #admission: RowAdmission;
  #hasSchema: boolean;
  #lastUnavailable: unknown = null;
  #closing: Promise<void> | null = null;

  private constructor(pool: PgPool, settings: Settings, hasSchema: boolean) {
    this.target = settings.target;
    this.table = settings.names.display;
    this.readOnly = settings.readOnly;
    this.#pool = pool;
    this.#names = settings.names;
    this.#insert = insertStatement(settings.names);
    this.#secret = settings.secret;
    this.#hasSchema = hasSchema;
    this.#admission = new RowAdmission(this.target);
    this.#queue = new AsyncWriteBehindQueue<SignalRow>({
      write: (batch) => this.#write(batch),
      sizeOf: rowBytes,
      giveUpAfterMs: settings.retryWindowMs,
      giveUpReason: (waited) => this.#classify(this.#lastUnavailable ?? new Error("server unavailable"), `writing signals (retried for ${waited} ms)`),
      onDrop: (rows, reason) => this.#admission.lost(rows, this.#classify(reason, "writing signals")),
    });
    const queue = this.#queue;
    this.#rows = {
      get pendingBytes() {
        return queue.pendingBytes;
      },
      submit: (row) => queue.submit(row),
    };
  }

  /**
   * Connects (a `postgres://` URL or a pg PoolConfig) and creates the table, its index and its
   * version row when missing (unless `readOnly`). Throws a SignalStoreError subclass naming the
   * database without its password: unreachable server, refused login, missing database, newer
   * schema, a same-named table HookLens did not create, or `pg` not installed.
   */
  static async open(connection: string | PostgresConnectionConfig, options: PostgresSignalStoreOptions = {}): Promise<PostgresSignalStore> {
    const where = "PostgresSignalStore.open(connection, options)";
    if (typeof connection !== "string") requireObject(connection, where, "connection (a postgres:// URL or a pg connection config)");
    else requireName(connection, where, "connection (a postgres:// URL or a pg connection config)");
    optionsObject(options, where);
    const config: PostgresConnectionConfig = typeof connection === "string" ? { connectionString: connection } : { ...connection };
    const names = quoteNames({ schema: options.schema ?? DEFAULT_POSTGRES_SCHEMA, table: options.table ?? DEFAULT_POSTGRES_TABLE });
    const urlSecret = secretInUrl(config.connectionString);
    const provisional = config.connectionString !== undefined ? describeConnectionString(config.connectionString) : describeTarget(config);
    const pg = await loadPgDriver(provisional);
    let target: string;
    let secret: unknown;
    try {
      const resolved = new pg.Client(config);
      target = describeTarget(resolved);
      secret = typeof resolved.password === "string" ? resolved.password : urlSecret;
    } catch (error) {
      const reason = scrub(error instanceof Error ? error.message : String(error), urlSecret ?? config.password);
      throw new SignalStoreError(provisional, `invalid PostgreSQL connection settings for ${provisional}: ${reason}`, { cause: error });
    }
    const settings: Settings = { target, names, secret, readOnly: options.readOnly ?? false, retryWindowMs: options.retryWindowMs ?? 30_000 };
    const pool = new pg.Pool({
      max: DEFAULT_POOL_SIZE,
      connectionTimeoutMillis: DEFAULT_CONNECT_TIMEOUT_MS,
      application_name: "hooklens",
      ...config,
      // Idle connections must not keep a finished program alive.
      allowExitOnIdle: true,
    });
    // A pooled connection the server drops emits "error"; unheard, that would crash the program.
    pool.on("error", (error) => getLogger().debug({ target }, `PostgreSQL connection of ${target} lost: ${scrub(error.message, secret)}`));
    try {
      let hasSchema = true;
      if (settings.readOnly) hasSchema = (await inspectSchema(pool, names, target)) === "current";
      else await ensureSchema(pool, names, target);
      const store = new PostgresSignalStore(pool, settings, hasSchema);
      if (!settings.readOnly) flushBeforeExit(store);
      return store;
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw classifyPostgresError(error, target, "opening it", secret);
    }
  }

  /** Signals not yet in the table (the next batch, the one in flight, or waiting for the server). */
  get pendingWrites(): number {
    return this.#queue.pending;
  }

  /** Signals given up: server away past the retry window, rejected inserts, or past the pending-work bound. */
  get droppedWrites(): number {
    return this.#admission.report.total;
  }

  /** How many times a batch found the server unreachable or out of capacity and was retried. */
  get busyRetries(): number {
    return this.#queue.retries;
  }

  get closed(): boolean {
    return this.#closing !== null;
  }

  /** Queues the record for the next batch; never waits. Throws only for a closed or read-only store. */
  insertSessionSignal(record: SessionSignalRecord): void {
    this.#assertOpen();
    if (this.readOnly) throw new SignalStoreUnwritableError(this.target, `${this.target} was opened read-only`);
    this.#admission.admit(this.#rows, [rowFromRecord(record)]);
  }

  /** Queues a flushed batch (payloads already JSON) for the next batch INSERT; past the bound, a marker replaces what is dropped. */
  insertEncodedSignals(sessionId: string, batch: readonly EncodedSignal[]): void {
    this.#assertOpen();
    if (this.readOnly) throw new SignalStoreUnwritableError(this.target, `${this.target} was opened read-only`);
    this.#admission.admitEncoded(this.#rows, sessionId, batch);
  }

  /** The records of one session in insertion order, payloads parsed back from jsonb. */
  listSessionSignals(sessionId: string): Promise<SessionSignalRecord[]> {
    return this.#read("reading a session", selectSessionStatement(this.#names), [sessionId], recordFromRow);
  }

  /** Every recorded session, in the order their first signal was written. */
  listSessions(): Promise<RecordedSession[]> {
    return this.#read("listing sessions", selectSessionsStatement(this.#names), [], recordedSessionFromRow);
  }

  /** Resolves once every queued write is in the table (or given up). */
  flush(): Promise<void> {
    return this.#queue.flush();
  }

  /** Writes what is still queued (one more attempt if the server is away), then ends the pool. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    forgetBeforeExit(this);
    this.#admission.queueMarkers(this.#rows);
    await this.#queue.finish(() => this.#lastUnavailable ?? new Error("the store was closed"));
    // A closed store has no later batch to carry a line the once-a-second limit held back.
    this.#admission.report.report(true);
    await this.#pool.end().catch(() => undefined);
  }

  async #write(batch: readonly SignalRow[]): Promise<boolean> {
    try {
      await this.#pool.query({ ...this.#insert, values: insertValues(batch) });
      this.#lastUnavailable = null;
      return true;
    } catch (error) {
      if (!isRetryableError(error)) throw this.#classify(error, "writing signals");
      this.#lastUnavailable = error;
      return false;
    }
  }

  async #read<T>(doing: string, sql: string, values: unknown[], convert: (row: Record<string, unknown>) => T): Promise<T[]> {
    this.#assertOpen();
    // Reads see this store's own writes, unless the server is away (the read would fail anyway).
    if (!this.readOnly && !this.#queue.stalled) await this.#queue.flush();
    try {
      // Another process may create the table after a read-only open: look again until it exists.
      this.#hasSchema ||= (await inspectSchema(this.#pool, this.#names, this.target)) === "current";
      if (!this.#hasSchema) return [];
      const { rows } = await this.#pool.query(sql, values);
      return rows.map(convert);
    } catch (error) {
      throw this.#classify(error, doing);
    }
  }

  #classify(error: unknown, doing: string): SignalStoreError {
    return classifyPostgresError(error, this.target, doing, this.#secret);
  }

  #assertOpen(): void {
    if (this.#closing !== null) throw new SignalStoreClosedError(this.target, `${this.target} is closed`);
  }
}

/** The password a connection URL carries, so it can be scrubbed from any message. */
function secretInUrl(connectionString: string | undefined): string | undefined {
  if (connectionString === undefined) return undefined;
  try {
    const password = new URL(connectionString).password;
    return password ? decodeURIComponent(password) : undefined;
  } catch {
    return undefined;
  }
}
