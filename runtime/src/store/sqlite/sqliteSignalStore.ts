import { resolve } from "node:path";
import { closeAtExit, forgetAtExit } from "../closeAtExit.js";
import { loadSqliteDriver, type SqliteDatabase, type SqliteStatement, type SqliteValue } from "./sqliteDriver.js";
import { classifySqliteError, isBusyError } from "./sqliteErrors.js";
import { breakStaleLock, registerLockOwner } from "./lockOwners.js";
import { BackgroundTurn, withLockTurn } from "./lockTurns.js";
import { rollBackUnlockedJournal } from "./hotJournal.js";
import { InvalidValueError } from "../../shared/errors.js";
import { SignalStoreClosedError, SignalStoreUnwritableError } from "../errors.js";
import { checkDatabasePath, makeParentFolder } from "./databasePath.js";
import { ensureSchema, inspectSchema } from "./sqliteSchema.js";
import type { RecordedSession, SessionSignalRecord, SignalStore } from "../signalStore.js";
import { recordedSessionFromRow, recordFromRow } from "../recordRows.js";
import { WriteBehindQueue } from "../queue/writeBehindQueue.js";
import type { EncodedSignal } from "../../session/pipeline/encodedSignal.js";
import { RowAdmission, type RowQueue } from "../rowSink.js";
import { rowFromRecord, type SignalRow } from "../signalRow.js";
import { optionsObject, requireName } from "../../shared/arguments.js";

export interface SqliteSignalStoreOptions {
  /** Open an existing file for reading only: nothing is created, writes are refused. */
  readOnly?: boolean;
  /**
   * How long explicit calls (open, reads, close) wait for their turn at the lock while other
   * processes use the file, in ms (default 30,000, the window background batches wait too); then they throw SignalStoreLockedError.
   * Writers' background batches step aside while such a call waits (see lockTurns.ts).
   */
  busyTimeoutMs?: number;
}

export type { RecordedSession };

/**
 * Rows per INSERT statement. Each statement run crosses into WebAssembly once; measured here,
 * 50 rows per statement write about 2.4× as many rows per CPU-second as one row per statement
 * (250 bound values, well under SQLite's limit).
 */
const ROWS_PER_INSERT = 50;
/**
 * The payload is bound as its UTF-8 bytes and stored as TEXT (SQLite takes a blob cast to text as
 * UTF-8, unchanged): the driver copies bytes into WebAssembly memory, where a string bind would
 * measure and encode it in two JavaScript loops over its characters (~18 % of an insert here).
 */
const insertSql = (rows: number): string =>
  `INSERT INTO session_signals (session_id, kind, op_id, ts, payload) VALUES ${Array(rows).fill("(?, ?, ?, ?, CAST(? AS TEXT))").join(", ")}`;
const SELECT_SESSION = "SELECT session_id, kind, op_id, ts, payload FROM session_signals WHERE session_id = ? ORDER BY id";
const SELECT_SESSIONS = `SELECT session_id, min(ts) AS first_ts, max(ts) AS last_ts, count(*) AS signal_count
  FROM session_signals GROUP BY session_id ORDER BY min(id)`;
const DEFAULT_BUSY_TIMEOUT_MS = 30_000;

/**
 * A SignalStore in one SQLite file (node-sqlite3-wasm: WebAssembly, real file I/O, no native
 * module). Rows keep insertion order through an autoincrement id. Inserts are queued and
 * committed in one transaction per event-loop turn, retried while another process holds the
 * lock; `flush()` waits for them, reads and `close()` write them first, and a normal process
 * exit writes what is left.
 */
export class SqliteSignalStore implements SignalStore {
  readonly path: string;
  readonly readOnly: boolean;
  readonly #db: SqliteDatabase;
  readonly #busyTimeoutMs: number;
  readonly #queue: WriteBehindQueue<SignalRow>;
  readonly #rows: RowQueue;
  readonly #admission: RowAdmission;
  /** The INSERTs of {@link ROWS_PER_INSERT} rows and of one row, each prepared once and reused for every batch. */
  #insertMany: SqliteStatement | null = null;
  #insertOne: SqliteStatement | null = null;
  /** False for a read-only open of an empty file: there is nothing to read yet. */
  readonly #hasSchema: boolean;
  #closed = false;
  /** True during an explicit call: its writes hold a turn and do not step aside for other waiters. */
  #explicit = false;
  /** This writer's place among the writers waiting for the file (see lockTurns.ts). */
  readonly #turn: BackgroundTurn;
  /** Removes this process from the file's registered lock owners (see lockOwners.ts). */
  readonly #unregisterOwner: () => void;

  private constructor(
    path: string,
    db: SqliteDatabase,
    options: Required<SqliteSignalStoreOptions>,
    hasSchema: boolean,
    unregisterOwner: () => void,
  ) {
    this.path = path;
    this.#unregisterOwner = unregisterOwner;
    this.readOnly = options.readOnly;
    this.#db = db;
    this.#busyTimeoutMs = options.busyTimeoutMs;
    this.#hasSchema = hasSchema;
    this.#turn = new BackgroundTurn(path);
    this.#admission = new RowAdmission(path);
    this.#queue = new WriteBehindQueue<SignalRow>({
      write: (batch) => this.#write(batch),
      onDrop: (rows, reason) => {
        const error = classifySqliteError(reason, path, "writing signals");
        this.#admission.lost(rows, error);
      },
    });
    const queue = this.#queue;
    this.#rows = {
      get pendingBytes() {
        return queue.pendingBytes;
      },
      submit: (row, bytes) => queue.submit(row, bytes),
    };
  }

  /**
   * Opens (creating the file, its folders and the schema unless `readOnly`) a signal database.
   * Throws a SignalStoreError subclass naming the path: not a database, newer schema,
   * unwritable location, missing file (read-only), or a lock held past `busyTimeoutMs`.
   */
  static async open(path: string, options: SqliteSignalStoreOptions = {}): Promise<SqliteSignalStore> {
    requireName(path, "SqliteSignalStore.open(path, options)", "path (a database file)");
    optionsObject(options, "SqliteSignalStore.open(path, options)");
    // SQLite's names for a database with no file: here they would become a file of that name.
    if (path === ":memory:" || path.startsWith("file:")) {
      throw new InvalidValueError(`SqliteSignalStore.open(path, options): path must name a database file; ${JSON.stringify(path)} is SQLite's in-memory or URI form, which this store does not take (a recording is kept in a file, so hooklens can read it)`);
    }
    const full = resolve(path);
    const settings = { readOnly: options.readOnly ?? false, busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS };
    checkDatabasePath(full, settings.readOnly);
    if (!settings.readOnly) makeParentFolder(full);
    const openDatabase = await loadSqliteDriver();
    // Registered before the first lock, so a breaker in another process sees this one as alive.
    const unregisterOwner = registerLockOwner(full);
    rollBackUnlockedJournal(full);
    let db: SqliteDatabase;
    try {
      db = openDatabase(full, { readOnly: settings.readOnly });
    } catch (error) {
      unregisterOwner();
      throw classifySqliteError(error, full, "opening it");
    }
    try {
      breakStaleLock(full);
      // SQLite's busy handler spins the CPU in WebAssembly: every wait for the lock is ours instead
      // (lockTurns.ts for explicit calls, the write-behind queue's backoff for background batches).
      db.exec("PRAGMA busy_timeout = 0");
      const hasSchema = withLockTurn(full, settings.busyTimeoutMs, () => {
        if (settings.readOnly) return inspectSchema(db, full) === "current";
        ensureSchema(db, full);
        // Truncating the journal instead of deleting it saves a file create and delete per batch.
        db.exec("PRAGMA journal_mode = TRUNCATE");
        return true;
      });
      const store = new SqliteSignalStore(full, db, settings, hasSchema, unregisterOwner);
      closeAtExit(store);
      return store;
    } catch (error) {
      db.close();
      unregisterOwner();
      throw classifySqliteError(error, full, "opening it");
    }
  }

  /** Signals not yet in the file (the next batch, or waiting for another process's lock). */
  get pendingWrites(): number {
    return this.#queue.pending;
  }

  /** Signals given up: lock held for 30 s, write errors, or more waiting than the pending-work bound allows. */
  get droppedWrites(): number {
    return this.#admission.report.total;
  }

  /** How many times a batch found the file locked by another process and was retried. */
  get busyRetries(): number {
    return this.#queue.busyRetries;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Queues the record for the next batch; never waits. Throws only for a closed or read-only store. */
  insertSessionSignal(record: SessionSignalRecord): void {
    this.#assertOpen();
    if (this.readOnly) throw new SignalStoreUnwritableError(this.path, `${this.path} was opened read-only`);
    this.#admission.admit(this.#rows, [rowFromRecord(record)]);
  }

  /**
   * Queues a flushed batch (payloads already JSON) and writes it at once unless another process
   * holds the lock: a burst that never yields still reaches the file batch by batch. Past the
   * pending-work bound rows are dropped and a `SignalsDropped` marker row takes their place.
   */
  insertEncodedSignals(sessionId: string, batch: readonly EncodedSignal[]): void {
    this.#assertOpen();
    if (this.readOnly) throw new SignalStoreUnwritableError(this.path, `${this.path} was opened read-only`);
    this.#admission.admitEncoded(this.#rows, sessionId, batch);
    if (!this.#queue.waitingForLock) this.#queue.drainNow();
  }

  /** The records of one session in insertion order, payloads parsed back to the objects written. */
  listSessionSignals(sessionId: string): SessionSignalRecord[] {
    return this.#read("reading a session", () => this.#db.all(SELECT_SESSION, sessionId).map(recordFromRow));
  }

  /** Every recorded session, in the order their first signal was written. */
  listSessions(): RecordedSession[] {
    return this.#read("listing sessions", () =>
      this.#db.all(SELECT_SESSIONS).map(recordedSessionFromRow),
    );
  }

  /** Resolves once every queued write is in the file (or given up). */
  flush(): Promise<void> {
    return this.#queue.flush();
  }

  /** Writes what is still queued (waiting up to the busy timeout), then closes the file. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    forgetAtExit(this);
    try {
      this.#admission.queueMarkers(this.#rows);
      if (this.#queue.pending > 0) {
        try {
          this.#explicitly(() => this.#drainOrThrow());
        } catch {
          // Still locked after the wait, or a write error: the rows are given up just below.
        }
      }
      this.#queue.abandon(classifySqliteError(new Error("database is locked"), this.path, "closing it"));
      // A closed store has no later batch to carry a line the once-a-second limit held back.
      this.#admission.report.report(true);
    } finally {
      this.#insertMany?.finalize();
      this.#insertOne?.finalize();
      this.#insertMany = this.#insertOne = null;
      this.#db.close();
      this.#turn.release();
      this.#unregisterOwner();
    }
  }

  /**
   * Commits `batch`; false when another process holds the lock (after breaking it once if its
   * owner is dead) or, for a background batch, while another process waits for its turn.
   */
  #write(batch: readonly SignalRow[]): boolean {
    if (!this.#explicit && !this.#turn.mayWrite()) {
      this.#turn.refused();
      return false;
    }
    const written = this.#commit(batch, false);
    if (!this.#explicit) {
      if (written) this.#turn.written();
      else this.#turn.refused();
    }
    return written;
  }

  #commit(batch: readonly SignalRow[], afterBreak: boolean): boolean {
    try {
      this.#db.exec("BEGIN IMMEDIATE");
      try {
        this.#insertRows(batch);
        this.#db.exec("COMMIT");
      } catch (error) {
        if (this.#db.inTransaction) this.#db.exec("ROLLBACK");
        throw error;
      }
      return true;
    } catch (error) {
      if (isBusyError(error)) return !afterBreak && breakStaleLock(this.path) ? this.#commit(batch, true) : false;
      throw classifySqliteError(error, this.path, "writing signals");
    }
  }

  /** Inserts `batch` in order, {@link ROWS_PER_INSERT} rows per statement run and the rest one by one. */
  #insertRows(batch: readonly SignalRow[]): void {
    let at = 0;
    if (batch.length >= ROWS_PER_INSERT) {
      const many = (this.#insertMany ??= this.#db.prepare(insertSql(ROWS_PER_INSERT)));
      const values: SqliteValue[] = new Array<SqliteValue>(ROWS_PER_INSERT * 5);
      for (; at + ROWS_PER_INSERT <= batch.length; at += ROWS_PER_INSERT) {
        for (let i = 0; i < ROWS_PER_INSERT; i++) writeRow(values, i * 5, batch[at + i]!);
        many.run(values);
      }
    }
    if (at === batch.length) return;
    const one = (this.#insertOne ??= this.#db.prepare(insertSql(1)));
    const values: SqliteValue[] = new Array<SqliteValue>(5);
    for (; at < batch.length; at++) {
      writeRow(values, 0, batch[at]!);
      one.run(values);
    }
  }

  #read<T>(doing: string, query: () => T[]): T[] {
    this.#assertOpen();
    if (!this.#hasSchema) return [];
    try {
      breakStaleLock(this.path);
      return this.#explicitly(() => {
        // Reads see this store's own queued writes.
        if (!this.readOnly) this.#drainOrThrow();
        return query();
      });
    } catch (error) {
      throw classifySqliteError(error, this.path, doing);
    }
  }

  /** Runs an explicit call (a read, the last write of close) with its turn at the lock, within the busy timeout. */
  #explicitly<T>(work: () => T): T {
    this.#explicit = true;
    try {
      return withLockTurn(this.path, this.#busyTimeoutMs, work);
    } finally {
      this.#explicit = false;
    }
  }

  /** Writes the queue now; throws SQLite's busy error when the lock stopped it, so the caller's turn retries. */
  #drainOrThrow(): void {
    if (!this.#queue.drainNow()) throw new Error("database is locked");
  }

  #assertOpen(): void {
    if (this.#closed) throw new SignalStoreClosedError(this.path, `${this.path} is closed`);
  }
}


function writeRow(values: SqliteValue[], at: number, row: SignalRow): void {
  values[at] = row.sessionId;
  values[at + 1] = row.kind;
  values[at + 2] = row.opId;
  values[at + 3] = row.ts;
  values[at + 4] = Buffer.from(row.payloadJson);
}
