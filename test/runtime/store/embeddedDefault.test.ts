import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  InMemorySignalStore,
  SIGNAL_DB_ENV,
  SessionObserver,
  SqliteSignalStore,
  closeEmbeddedSignalStores,
  defaultSignalDbPath,
  setDefaultSignalStore,
} from "@hooklens/runtime";
import { captureLogs, type CapturedLog } from "../../helpers/captureLogs.js";
import { createTempDir } from "../../helpers/tempDir.js";

let temp: ReturnType<typeof createTempDir>;
let logs: CapturedLog[];
let restoreLogs: () => void;
const savedEnv = process.env[SIGNAL_DB_ENV];
const savedCwd = process.cwd();

beforeEach(() => {
  temp = createTempDir("hooklens-default-db-");
  ({ logs, restore: restoreLogs } = captureLogs());
  delete process.env[SIGNAL_DB_ENV];
});
afterEach(async () => {
  await closeEmbeddedSignalStores();
  setDefaultSignalStore(null);
  process.chdir(savedCwd);
  if (savedEnv === undefined) delete process.env[SIGNAL_DB_ENV];
  else process.env[SIGNAL_DB_ENV] = savedEnv;
  restoreLogs();
  temp.dispose();
});

/** Emits through an observer bound without a store, then lets the default store write. */
async function emitUnbound(sessionId: string, ...values: unknown[]): Promise<void> {
  const observer = new SessionObserver();
  observer.bindDbPersistence(sessionId);
  for (const value of values) await observer.emit(value);
  await observer.flush();
  await closeEmbeddedSignalStores();
}

async function recorded(path: string, sessionId: string): Promise<unknown[]> {
  const store = await SqliteSignalStore.open(path, { readOnly: true });
  try {
    return store.listSessionSignals(sessionId).map((r) => r.payload["data"]);
  } finally {
    store.close();
  }
}

describe("the embedded default signal database", () => {
  it("is .hooklens/signals.db under the working directory, or $HOOKLENS_DB resolved against it", () => {
    expect(defaultSignalDbPath({}, "/work/app")).toBe(join("/work/app", ".hooklens", "signals.db"));
    expect(defaultSignalDbPath({ HOOKLENS_DB: "runs/x.db" }, "/work/app")).toBe(join("/work/app", "runs", "x.db"));
    expect(defaultSignalDbPath({ HOOKLENS_DB: "/abs/y.db" }, "/work/app")).toBe("/abs/y.db");
    expect(defaultSignalDbPath({ HOOKLENS_DB: "" }, "/work/app")).toBe(join("/work/app", ".hooklens", "signals.db"));
  });

  it("receives the signals of a store-less binding when .hooklens/signals.db exists under the working directory", async () => {
    process.chdir(temp.dir);
    mkdirSync(".hooklens");
    (await SqliteSignalStore.open(".hooklens/signals.db")).close();
    await emitUnbound("cwd-session", 1, 2, 3);
    expect(await recorded(temp.path(".hooklens/signals.db"), "cwd-session")).toEqual([1, 2, 3]);
  });

  it("is never created: without the file nothing is written and no file or folder appears", async () => {
    process.chdir(temp.dir);
    await emitUnbound("nowhere", 1);
    expect(existsSync(temp.path(".hooklens"))).toBe(false);
    expect(logs.filter((l) => l.level === "error")).toEqual([]);
  });

  it("follows HOOKLENS_DB, and an existing empty file is enough to start recording", async () => {
    process.chdir(temp.dir);
    const path = temp.path("elsewhere/run.db");
    mkdirSync(temp.path("elsewhere"));
    writeFileSync(path, "");
    mkdirSync(".hooklens");
    (await SqliteSignalStore.open(".hooklens/signals.db")).close();
    process.env[SIGNAL_DB_ENV] = "elsewhere/run.db";
    await emitUnbound("env-session", "a", "b");
    expect(await recorded(path, "env-session")).toEqual(["a", "b"]);
    expect(await recorded(temp.path(".hooklens/signals.db"), "env-session")).toEqual([]);
  });

  it("does not create the file HOOKLENS_DB names", async () => {
    process.env[SIGNAL_DB_ENV] = temp.path("absent.db");
    await emitUnbound("s", 1);
    expect(existsSync(temp.path("absent.db"))).toBe(false);
  });

  it("yields to a store set with setDefaultSignalStore", async () => {
    process.env[SIGNAL_DB_ENV] = temp.path("signals.db");
    (await SqliteSignalStore.open(temp.path("signals.db"))).close();
    const memory = new InMemorySignalStore();
    setDefaultSignalStore(memory);
    await emitUnbound("s", 1);
    expect(memory.records).toHaveLength(1);
    expect(await recorded(temp.path("signals.db"), "s")).toEqual([]);
  });

  it("reports a file it cannot open once, then skips it, and emit still resolves", async () => {
    process.env[SIGNAL_DB_ENV] = temp.path("garbage.db");
    writeFileSync(temp.path("garbage.db"), "not sqlite ".repeat(200));
    const observer = new SessionObserver();
    observer.bindDbPersistence("s");
    for (let i = 0; i < 3; i++) await expect(observer.emit(i)).resolves.toEqual([]);
    await observer.flush();
    const errors = logs.filter((l) => l.level === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]!.msg).toContain(`${temp.path("garbage.db")} is not a SQLite database`);
  });
});
