import { closeSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readSync, rmSync, statSync, writeSync } from "node:fs";
import { getLogger } from "../../shared/log.js";

/**
 * Rolls back the rollback journal a writer killed in the middle of a commit leaves beside the
 * database (`<file>-journal`, "hot": the original pages of what it had started to overwrite).
 *
 * SQLite does this itself on the next open, but not through node-sqlite3-wasm: its VFS answers
 * "is another connection writing?" (xCheckReservedLock) by whether `<file>.lock` exists, and it
 * creates that folder for the asking connection's own shared lock first. So SQLite never sees a
 * journal as hot, reads the half-written pages, and the next transaction overwrites the journal:
 * the file stays "malformed". Here the journal is played back as SQLite's pager does it
 * (https://www.sqlite.org/fileformat.html#the_rollback_journal): the file cut back to its size
 * before the transaction, each page record whose checksum holds written back, then the journal
 * emptied, as `journal_mode = TRUNCATE` leaves it after a commit.
 *
 * The caller must hold the database's lock (the `<file>.lock` folder, or the right to remove a
 * dead writer's), so no connection reads or writes the file meanwhile. Never throws; true when
 * a journal was played back.
 */
export function rollBackHotJournal(dbPath: string): boolean {
  const journalPath = `${dbPath}-journal`;
  let journal: number;
  try {
    journal = openSync(journalPath, "r+");
  } catch {
    return false; // no journal: nothing was in flight
  }
  try {
    const pages = readPages(journal);
    if (pages === null) return false;
    const db = openSync(dbPath, "r+");
    try {
      ftruncateSync(db, pages.originalSize);
      for (const page of pages.records) writeSync(db, page.data, 0, page.data.length, page.offset);
      fsyncSync(db);
    } finally {
      closeSync(db);
    }
    ftruncateSync(journal, 0);
    fsyncSync(journal);
    getLogger().warn(`HookLens rolled back the unfinished transaction a killed writer left in ${dbPath} (${pages.records.length} page(s) restored)`);
    return true;
  } catch (error) {
    getLogger().error({ err: error }, `Could not roll back the journal of ${dbPath}: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  } finally {
    closeSync(journal);
  }
}

const MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);
const HEADER_BYTES = 28;

interface JournalPages {
  /** The database's size in bytes before the transaction. */
  originalSize: number;
  records: { offset: number; data: Buffer }[];
}

/** The journal's page records, or null when it is not hot (empty, zeroed or not a journal). */
function readPages(journal: number): JournalPages | null {
  const size = fstatSync(journal).size;
  const first = readHeader(journal, 0, size);
  if (first === null) return null;
  const { pageSize, sectorSize } = first;
  const records: JournalPages["records"] = [];
  let header: JournalHeader | null = first;
  let offset = 0;
  segments: while (header !== null) {
    offset += sectorSize;
    const recordBytes = pageSize + 8;
    // 0xFFFFFFFF: a journal written without syncs, whose records run to the end of the file.
    const count = header.records === 0xffffffff ? Math.floor((size - offset) / recordBytes) : header.records;
    for (let i = 0; i < count; i++) {
      if (offset + recordBytes > size) break segments;
      const record = Buffer.alloc(recordBytes);
      readSync(journal, record, 0, recordBytes, offset);
      const pageNumber = record.readUInt32BE(0);
      const data = record.subarray(4, 4 + pageSize);
      // A record whose checksum fails was never synced: the page behind it was never overwritten.
      if (pageNumber === 0 || record.readUInt32BE(4 + pageSize) !== checksum(header.nonce, data)) break segments;
      records.push({ offset: (pageNumber - 1) * pageSize, data });
      offset += recordBytes;
    }
    // A large transaction syncs in segments, each behind a header at the next sector boundary.
    offset = Math.ceil(offset / sectorSize) * sectorSize;
    header = readHeader(journal, offset, size);
    if (header !== null && (header.pageSize !== pageSize || header.sectorSize !== sectorSize)) break;
  }
  return { originalSize: first.originalPages * pageSize, records };
}

interface JournalHeader {
  records: number;
  nonce: number;
  originalPages: number;
  sectorSize: number;
  pageSize: number;
}

function readHeader(journal: number, offset: number, size: number): JournalHeader | null {
  if (offset + HEADER_BYTES > size) return null;
  const bytes = Buffer.alloc(HEADER_BYTES);
  readSync(journal, bytes, 0, HEADER_BYTES, offset);
  if (!bytes.subarray(0, 8).equals(MAGIC)) return null;
  const header = {
    records: bytes.readUInt32BE(8),
    nonce: bytes.readUInt32BE(12),
    originalPages: bytes.readUInt32BE(16),
    sectorSize: bytes.readUInt32BE(20),
    pageSize: bytes.readUInt32BE(24),
  };
  const powerOfTwo = (n: number): boolean => (n & (n - 1)) === 0;
  // SQLite's own bounds: a header outside them is corruption, not a journal to play back.
  if (header.pageSize < 512 || header.pageSize > 65_536 || !powerOfTwo(header.pageSize)) return null;
  if (header.sectorSize < 32 || header.sectorSize > 65_536 || !powerOfTwo(header.sectorSize)) return null;
  return header;
}

/** SQLite's page-record checksum: the nonce plus every 200th byte, from the end of the page back. */
function checksum(nonce: number, data: Buffer): number {
  let sum = nonce;
  for (let i = data.length - 200; i > 0; i -= 200) sum = (sum + data[i]!) >>> 0;
  return sum;
}

/**
 * {@link rollBackHotJournal} before a store opens the file, when a journal is left and nobody
 * holds the lock (a writer killed after its lock was already cleared away): the lock is taken
 * for the playback the way the driver takes it, so no connection can read the file meanwhile. A
 * held lock is left alone: a live writer's journal is its own, and a dead writer's is played
 * back by whoever breaks its lock.
 */
export function rollBackUnlockedJournal(dbPath: string): boolean {
  try {
    if (statSync(`${dbPath}-journal`).size === 0) return false;
  } catch {
    return false;
  }
  const lock = `${dbPath}.lock`;
  try {
    mkdirSync(lock);
  } catch {
    return false;
  }
  try {
    return rollBackHotJournal(dbPath);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
