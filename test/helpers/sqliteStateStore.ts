/**
 * A SessionStateStore on a real SQLite file, as a user would write one: each session, branch and
 * message row kept as JSON text. The leak suite records through it and reads the file's bytes.
 */
import {
  InMemorySessionStateStore,
  type BranchRecord,
  type BranchUpdate,
  type MessageRecord,
  type SessionRecord,
  type SessionStateStore,
  type SessionUpdate,
} from "@hooklens/runtime";
import {
  loadSqliteDriver,
  type SqliteDatabase,
} from "../../runtime/src/store/sqlite/sqliteDriver.js";

export class SqliteStateStore implements SessionStateStore {
  private constructor(private readonly db: SqliteDatabase) {}

  static async open(path: string): Promise<SqliteStateStore> {
    const open = await loadSqliteDriver();
    const db = open(path, { readOnly: false });
    // A test store: durability does not matter, speed on a loaded machine does.
    db.exec(
      "PRAGMA locking_mode = EXCLUSIVE; PRAGMA synchronous = OFF; PRAGMA journal_mode = MEMORY;",
    );
    db.exec(`CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, row TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS branches (id TEXT PRIMARY KEY, row TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS messages (id TEXT PRIMARY KEY, row TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS progressions (id TEXT NOT NULL, message_id TEXT NOT NULL);`);
    return new SqliteStateStore(db);
  }

  /** Adds a pending session row (the in-memory store's defaults), as the program that starts a session would. */
  createSession(id: string): void {
    this.#put(
      "sessions",
      id,
      new InMemorySessionStateStore().createSession(id),
    );
  }

  getSession(sessionId: string): SessionRecord | undefined {
    return this.#get<SessionRecord>("sessions", sessionId);
  }

  updateSession(sessionId: string, update: SessionUpdate): void {
    const row = this.getSession(sessionId);
    if (row) this.#put("sessions", sessionId, { ...row, ...update });
  }

  updateBranch(branchId: string, update: BranchUpdate): void {
    const row = this.#get<BranchRecord>("branches", branchId) ?? {
      id: branchId,
      model: null,
      provider: null,
      agentName: null,
      systemMsgId: null,
    };
    for (const [key, value] of Object.entries(update))
      if (value !== null && value !== undefined)
        Object.assign(row, { [key]: value });
    this.#put("branches", branchId, row);
  }

  insertMessage(message: MessageRecord): void {
    this.#put("messages", message.id, message);
  }

  appendToProgression(progressionId: string, messageId: string): void {
    this.db.run("INSERT INTO progressions (id, message_id) VALUES (?, ?)", [
      progressionId,
      messageId,
    ]);
  }

  touchSessionActivity(sessionId: string): void {
    this.updateSession(sessionId, { lastActivityAt: Date.now() / 1000 });
  }

  /** Every row of `table` ("sessions", "branches" or "messages"), parsed. */
  rows(table: string): unknown[] {
    return this.db
      .all(`SELECT row FROM ${table}`)
      .map((found) => JSON.parse(String(found["row"])) as unknown);
  }

  close(): void {
    this.db.close();
  }

  #get<T>(table: string, id: string): T | undefined {
    const found = this.db.get(`SELECT row FROM ${table} WHERE id = ?`, [id]);
    return found ? (JSON.parse(String(found["row"])) as T) : undefined;
  }

  #put(table: string, id: string, row: object): void {
    this.db.run(`INSERT OR REPLACE INTO ${table} (id, row) VALUES (?, ?)`, [
      id,
      JSON.stringify(row),
    ]);
  }
}
