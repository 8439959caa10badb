import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { breakStaleLock, host, isAlive, mkdirOnce } from "./lockOwners.js";
import { isBusyError } from "./sqliteErrors.js";

/**
 * Turns at the database lock, shared by every HookLens process using one file.
 *
 * node-sqlite3-wasm has one lock per file for everything, reads included (`<file>.lock`, a folder
 * created with mkdir), and SQLite's own busy handler, the only wait it offers, spins the CPU in
 * WebAssembly. A writer that commits a batch every turn takes that folder again within
 * milliseconds, so a reader or a newly opened writer polling for it could lose every race for
 * seconds (16 of 56 new writers and 15 read-only opens failed after 2 s behind a busy writer).
 *
 * So an explicit operation (an open, a read, a close) that finds the file locked announces that it
 * waits, with a ticket file in `<file>.waiting/`, and retries, sleeping between tries without
 * spinning; every writer's background batch steps aside while another process holds such a ticket
 * (the batch stays queued and is retried on its own backoff, as when the file is locked). A
 * background batch refused for {@link BACKGROUND_TICKET_AFTER_MS} takes a ticket too, and the
 * other writers' batches step aside for tickets older than their own: writers take turns, oldest
 * wait first, instead of the busiest writer winning every race. Tickets of dead processes are
 * removed; a ticket older than {@link TICKET_STALE_MS} is ignored.
 */

/** A ticket older than this is a waiter that died without removing it (nobody waits that long). */
const TICKET_STALE_MS = 60_000;
/** How long a background batch is refused before its writer asks for a turn. */
const BACKGROUND_TICKET_AFTER_MS = 50;
const FIRST_SLEEP_MS = 1;
const MAX_SLEEP_MS = 20;
let tickets = 0;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function waitingFolder(dbPath: string): string {
  return `${dbPath}.waiting`;
}

/** Sleeps the thread for `ms` without using the CPU (the operations that wait are synchronous). */
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/**
 * Runs `attempt` until it gets past the lock: a first try, then, while it fails with SQLite's
 * busy error, with a waiting ticket held and a pause between tries, for at most `boundMs`. A lock
 * left by a dead process is broken between tries. Throws the last busy error after the bound, and
 * any other error at once.
 */
export function withLockTurn<T>(dbPath: string, boundMs: number, attempt: () => T): T {
  try {
    return attempt();
  } catch (error) {
    if (!isBusyError(error)) throw error;
  }
  const deadline = Date.now() + boundMs;
  const release = takeTicket(dbPath, "x").release;
  try {
    for (let sleep = FIRST_SLEEP_MS; ; sleep = Math.min(sleep * 2, MAX_SLEEP_MS)) {
      breakStaleLock(dbPath);
      try {
        return attempt();
      } catch (error) {
        if (!isBusyError(error) || Date.now() >= deadline) throw error;
      }
      // Jitter, so waiters of several processes do not retry in step.
      sleepSync(Math.min(sleep * (0.5 + Math.random()), Math.max(1, deadline - Date.now())));
    }
  } finally {
    release();
  }
}

/**
 * A writer's turns for its background batches: {@link mayWrite} before each batch, then
 * {@link refused} or {@link written}; {@link release} when the store closes.
 */
export class BackgroundTurn {
  #ticket: Ticket | null = null;
  #refusedSince = 0;

  constructor(readonly dbPath: string) {}

  /** False while another process waits for a turn ahead of this writer: the batch steps aside. */
  mayWrite(): boolean {
    return !othersWaiting(this.dbPath, this.#ticket?.created ?? Number.POSITIVE_INFINITY);
  }

  /** The batch found the file locked (or stepped aside): after a while, this writer asks for a turn. */
  refused(): void {
    const now = Date.now();
    if (this.#refusedSince === 0) this.#refusedSince = now;
    else if (this.#ticket === null && now - this.#refusedSince >= BACKGROUND_TICKET_AFTER_MS) this.#ticket = takeTicket(this.dbPath, "b");
  }

  written(): void {
    this.#refusedSince = 0;
    this.release();
  }

  release(): void {
    this.#ticket?.release();
    this.#ticket = null;
  }
}

/**
 * Whether a live process other than this one waits for a turn at `dbPath` ahead of a background
 * batch whose own ticket was taken at `ownCreated` (Infinity: none): any explicit call's ticket,
 * and background tickets taken earlier.
 */
function othersWaiting(dbPath: string, ownCreated: number): boolean {
  const folder = waitingFolder(dbPath);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return false;
  }
  const now = Date.now();
  for (const name of names) {
    const [ticketHost, pidText, kind, createdText] = name.split("~");
    const pid = Number(pidText);
    const created = Number(createdText);
    if (pid === process.pid && ticketHost === encodeURIComponent(host)) continue;
    const ticket = join(folder, name);
    if (ticketHost === encodeURIComponent(host) && Number.isSafeInteger(pid) && pid > 0 && !isAlive(pid)) {
      rmSync(ticket, { force: true });
      continue;
    }
    if (!(now - created < TICKET_STALE_MS)) continue;
    if (kind === "x" || created < ownCreated) return true;
  }
  return false;
}

interface Ticket {
  created: number;
  release(): void;
}

/**
 * Files a ticket for a wait: explicit ("x") or background ("b"), with when it was taken, in its
 * name (read without a stat). A location where it cannot be written gets none.
 */
function takeTicket(dbPath: string, kind: "x" | "b"): Ticket {
  const created = Date.now();
  const ticket = join(waitingFolder(dbPath), `${encodeURIComponent(host)}~${process.pid}~${kind}~${created}~${++tickets}`);
  try {
    mkdirOnce(waitingFolder(dbPath));
    writeFileSync(ticket, "");
  } catch {
    return { created, release: () => undefined };
  }
  return { created, release: () => rmSync(ticket, { force: true }) };
}
