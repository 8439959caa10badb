import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { createRequire } from "node:module";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteSignalStore } from "@hooklens/runtime";
import { createTempDir } from "../../helpers/tempDir.js";

/**
 * A writer killed in the middle of a commit leaves a "hot" rollback journal: the original pages
 * of what it had started to overwrite in the file. node-sqlite3-wasm never plays one back (its
 * VFS reports the reader's own lock as another writer's), so the store does. The files a kill
 * leaves are made here without a kill, deterministically: a transaction large enough to spill
 * pages into the file before its commit, copied while it is still open.
 */

interface RawDatabase {
  exec(sql: string): void;
  close(): void;
}
const { Database } = createRequire(import.meta.url)("node-sqlite3-wasm") as { Database: new (path: string) => RawDatabase };

let temp: ReturnType<typeof createTempDir>;
beforeEach(() => (temp = createTempDir("hooklens-hot-journal-")));
afterEach(() => temp.dispose());

const COMMITTED = 200;

/** A database with COMMITTED rows, and a copy of it (with its journal) taken mid-transaction. */
async function killedMidCommit(): Promise<{ crashed: string; committed: Buffer }> {
  const live = temp.path("live.db");
  const store = await SqliteSignalStore.open(live);
  for (let i = 0; i < COMMITTED; i++) store.insertSessionSignal({ sessionId: "kept", kind: "Signal", opId: `op-${i}`, ts: i, payload: { i, text: `row ${i}` } });
  await store.flush();
  store.close();
  const committed = readFileSync(live);

  const raw = new Database(live);
  try {
    // A tiny page cache spills dirty pages into the file before the commit, after the journal
    // holding their originals was synced: what a kill mid-commit leaves on disk.
    raw.exec("PRAGMA cache_size = 10");
    raw.exec("BEGIN");
    raw.exec(`DELETE FROM session_signals WHERE id % 2 = 0`);
    for (let i = 0; i < 400; i++) {
      raw.exec(`INSERT INTO session_signals (session_id, kind, op_id, ts, payload) VALUES ('torn', 'Signal', 'x', ${i}, '${JSON.stringify({ filler: "y".repeat(900), i })}')`);
    }
    const crashed = temp.path("crashed");
    mkdirSync(crashed);
    copyFileSync(live, `${crashed}/killed.db`);
    copyFileSync(`${live}-journal`, `${crashed}/killed.db-journal`);
    raw.exec("ROLLBACK");
    return { crashed: `${crashed}/killed.db`, committed };
  } finally {
    raw.close();
  }
}

function expectCommittedRows(store: SqliteSignalStore): void {
  const rows = store.listSessionSignals("kept");
  expect(rows.map((row) => row.payload["i"])).toEqual(Array.from({ length: COMMITTED }, (_, i) => i));
  expect(store.listSessionSignals("torn")).toEqual([]);
}

describe("a writer killed in the middle of a commit", () => {
  it("left the file half-written: the copy differs from the committed file and its journal holds pages", async () => {
    const { crashed, committed } = await killedMidCommit();
    expect(readFileSync(crashed).equals(committed)).toBe(false);
    expect(statSync(`${crashed}-journal`).size).toBeGreaterThan(0);
  });

  it("is rolled back when the next store opens the file: every committed row, none of the torn ones", async () => {
    const { crashed } = await killedMidCommit();
    const store = await SqliteSignalStore.open(crashed);
    try {
      expectCommittedRows(store);
      store.insertSessionSignal({ sessionId: "next", kind: "Signal", opId: "next", ts: 0, payload: {} });
      await store.flush();
      expect(store.droppedWrites).toBe(0);
    } finally {
      store.close();
    }
    expect(statSync(`${crashed}-journal`).size).toBe(0);
  });

  it("is rolled back by whoever breaks the dead writer's lock, before anyone reads the file", async () => {
    const { crashed } = await killedMidCommit();
    // The lock a SIGKILL leaves, and its owner's registration under a pid that has exited.
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    mkdirSync(`${crashed}.lock`);
    mkdirSync(`${crashed}.owners`);
    writeFileSync(`${crashed}.owners/${encodeURIComponent(hostname())}-${dead.stdout}`, "{}");
    const store = await SqliteSignalStore.open(crashed, { busyTimeoutMs: 0 });
    try {
      expectCommittedRows(store);
    } finally {
      store.close();
    }
  });

  it("a read-only reader (hooklens sessions, show) gets the committed rows too", async () => {
    const { crashed } = await killedMidCommit();
    const store = await SqliteSignalStore.open(crashed, { readOnly: true });
    try {
      expectCommittedRows(store);
    } finally {
      store.close();
    }
  });
});
