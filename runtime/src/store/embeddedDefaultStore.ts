import { lstatSync } from "node:fs";
import { requireObject, requireString } from "../shared/arguments.js";
import { resolve } from "node:path";
import { flushSignals } from "../session/pipeline/signalPipeline.js";
import { PostgresSignalStore } from "./postgres/postgresSignalStore.js";
import { isPostgresUrl } from "./postgres/postgresTarget.js";
import type { SignalStore } from "./signalStore.js";
import { SqliteSignalStore } from "./sqlite/sqliteSignalStore.js";

/** Where the embedded default lives, relative to the working directory. */
export const DEFAULT_SIGNAL_DB = ".hooklens/signals.db";
/**
 * Environment variable that points the default elsewhere: a file (absolute, or relative to the
 * working directory), or a `postgres://` / `postgresql://` URL for a shared PostgreSQL database.
 */
export const SIGNAL_DB_ENV = "HOOKLENS_DB";

/** How long "the file is not there" is believed before the next check, so writes stay cheap. */
const MISS_TTL_MS = 1_000;

/**
 * The default signal database: `$HOOKLENS_DB`, else `.hooklens/signals.db`, resolved against `cwd`.
 * A PostgreSQL URL in `$HOOKLENS_DB` is returned as it is.
 */
export function defaultSignalDbPath(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  requireObject(env, "defaultSignalDbPath(env, cwd)", "env (such as process.env)");
  requireString(cwd, "defaultSignalDbPath(env, cwd)", "cwd");
  const configured = env[SIGNAL_DB_ENV];
  if (configured !== undefined && isPostgresUrl(configured)) return configured;
  return resolve(cwd, configured !== undefined && configured !== "" ? configured : DEFAULT_SIGNAL_DB);
}

type EmbeddedStore = SqliteSignalStore | PostgresSignalStore;

/** Per path or URL: the store (opening or open), or null when opening failed and writes are skipped. */
const stores = new Map<string, SignalStore | null>();
const opened: Array<Promise<EmbeddedStore | null>> = [];
let lastMiss: { path: string; until: number } | null = null;

/**
 * The store a `bindDbPersistence` without a store (and no `setDefaultSignalStore`) writes to:
 * the default SQLite file, but only when it already exists; it is never created here. The file
 * is opened once per path and reused; a file that cannot be opened is reported once, then skipped.
 * A PostgreSQL URL in `$HOOKLENS_DB` is the opt-in itself: its table is created when missing, and
 * a server that cannot be reached at the first write is likewise reported once, then skipped.
 */
export function embeddedDefaultSignalStore(): SignalStore | null {
  const path = defaultSignalDbPath();
  const known = stores.get(path);
  if (known !== undefined) return known;
  const postgres = isPostgresUrl(path);
  if (!postgres) {
    if (lastMiss && lastMiss.path === path && Date.now() < lastMiss.until) return null;
    if (!somethingAt(path)) {
      lastMiss = { path, until: Date.now() + MISS_TTL_MS };
      return null;
    }
  }
  const store = openingStore(path, postgres ? PostgresSignalStore.open(path) : SqliteSignalStore.open(path));
  stores.set(path, store);
  return store;
}

/** Flushes the signals recorded so far, then closes every default store opened so far and forgets them (the next write looks again). */
export async function closeEmbeddedSignalStores(): Promise<void> {
  await flushSignals();
  const pending = opened.splice(0);
  stores.clear();
  lastMiss = null;
  for (const store of await Promise.all(pending)) {
    if (!store || store.closed) continue;
    await store.flush();
    await store.close();
  }
}

/** Stands in while the file opens; writes made meanwhile keep their order (promise reactions run FIFO). */
function openingStore(path: string, opening: Promise<EmbeddedStore>): SignalStore {
  let reported = false;
  const settled = opening.then(
    (store) => {
      if (stores.get(path) === proxy) stores.set(path, store);
      return store;
    },
    () => {
      if (stores.get(path) === proxy) stores.set(path, null);
      return null;
    },
  );
  opened.push(settled);
  const proxy: SignalStore = {
    async insertSessionSignal(record) {
      const store = await settled;
      if (store) return store.insertSessionSignal(record);
      if (reported) return;
      reported = true;
      await opening; // rethrows the open error once, for the observer to log
    },
    async listSessionSignals(sessionId) {
      return (await opening).listSessionSignals(sessionId);
    },
  };
  return proxy;
}

/** Whether anything is at `path`, a dangling symbolic link included (opening it then says what is wrong). */
function somethingAt(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
