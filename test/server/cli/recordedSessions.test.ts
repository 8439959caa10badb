import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Database } from "node-sqlite3-wasm";
import { SqliteSignalStore } from "@hooklens/runtime";
import { builtCli } from "../../helpers/builtCli.js";
import { createTempDir } from "../../helpers/tempDir.js";
import { RECORDED_ROWS, RECORDED_T0 } from "../../helpers/signalRecords.js";

let cli: string;
let temp: ReturnType<typeof createTempDir>;
let db: string;

const T0 = RECORDED_T0;
const rows = RECORDED_ROWS;

beforeAll(async () => {
  cli = builtCli();
  temp = createTempDir("hooklens-cli-sessions-");
  db = temp.path("recorded.db");
  const store = await SqliteSignalStore.open(db);
  for (const row of rows) store.insertSessionSignal(row);
  store.close();
});
afterAll(() => temp.dispose());

const hooklens = (args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  spawnSync(process.execPath, [cli, ...args], {
    cwd: options.cwd ?? temp.dir,
    env: { ...process.env, HOOKLENS_DB: "", ...options.env },
    encoding: "utf8",
  });

describe("hooklens sessions", () => {
  it("lists each session with first and last time (UTC) and signal count, oldest first", () => {
    const { status, stdout, stderr } = hooklens(["sessions", "--db", db]);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    expect(stdout.split("\n")).toEqual([
      "sess-alpha  2026-01-02T03:04:05.000Z  2026-01-02T03:04:08.000Z  3 signal(s)",
      "sess-beta   2026-01-02T03:04:06.000Z  2026-01-02T03:04:06.000Z  1 signal(s)",
      `2 session(s) in ${db}.`,
      "",
    ]);
  });

  it("prints the sessions as JSON", () => {
    const { status, stdout } = hooklens(["sessions", "--db", db, "--format", "json"]);
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual([
      { sessionId: "sess-alpha", firstTs: T0, lastTs: T0 + 3, signalCount: 3 },
      { sessionId: "sess-beta", firstTs: T0 + 1, lastTs: T0 + 1, signalCount: 1 },
    ]);
  });

  it("uses .hooklens/signals.db under the working directory, or $HOOKLENS_DB, without --db", () => {
    const project = temp.path("project");
    mkdirSync(`${project}/.hooklens`, { recursive: true });
    writeFileSync(`${project}/.hooklens/signals.db`, "");
    expect(hooklens(["sessions"], { cwd: project }).stdout).toBe(`No recorded sessions in ${project}/.hooklens/signals.db.\n`);
    const viaEnv = hooklens(["sessions"], { cwd: project, env: { HOOKLENS_DB: db } });
    expect(viaEnv.status).toBe(0);
    expect(viaEnv.stdout).toContain("2 session(s)");
  });
});

describe("hooklens show", () => {
  it("prints one line per signal in recorded order: time, kind, op id, payload summary", () => {
    const { status, stdout } = hooklens(["show", "sess-alpha", "--db", db]);
    expect(status).toBe(0);
    expect(stdout.split("\n")).toEqual([
      '2026-01-02T03:04:05.000Z  HookSignal   -     point=tool.pre payload={"tool":"search"}',
      "2026-01-02T03:04:07.500Z  NodeStarted  op-7  data=line one line two",
      '2026-01-02T03:04:08.000Z  Signal       -     truncated (40000 bytes): {"createdAt":1,"data":"zzzz',
      "3 signal(s) in session sess-alpha.",
      "",
    ]);
  });

  it("prints the records as JSON, payloads as they were written (these have no durations)", () => {
    const { status, stdout } = hooklens(["show", "sess-alpha", "--db", db, "--format", "json"]);
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual(rows.filter((r) => r.sessionId === "sess-alpha"));
  });

  it("shows durations in ms: first on a text line, as rounded durationMs numbers in JSON", async () => {
    const timed = temp.path("timed.db");
    const store = await SqliteSignalStore.open(timed);
    const payload = { point: "tool.post", payload: { toolName: "search", result: { hits: ["a".repeat(200)] }, duration: 0.000040105999999468624 } };
    store.insertSessionSignal({ sessionId: "sess-timed", ts: T0, kind: "HookSignal", opId: "", payload });
    store.close();

    const text = hooklens(["show", "sess-timed", "--db", timed]);
    expect(text.status).toBe(0);
    expect(text.stdout.split("\n")[0]).toMatch(/^2026-01-02T03:04:05\.000Z {2}HookSignal {2}- {2}0\.040 ms point=tool\.post payload=\{"toolName":"search","result":/);

    const json = hooklens(["show", "sess-timed", "--db", timed, "--format", "json"]);
    expect(json.status).toBe(0);
    expect(json.stdout).not.toContain("0.0000401");
    const [record] = JSON.parse(json.stdout) as Array<{ payload: { payload: Record<string, unknown> } }>;
    expect(record?.payload.payload).toEqual({ toolName: "search", result: { hits: ["a".repeat(200)] }, durationMs: 0.04 });
  });

  it("exits 2 for an unknown session and names the recorded ones", () => {
    const { status, stdout, stderr } = hooklens(["show", "sess-gamma", "--db", db]);
    expect(status).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe(`hooklens: no session "sess-gamma" in ${db}; recorded sessions: sess-alpha, sess-beta\n`);
  });

  it("exits 2 without exactly one session id", () => {
    const { status, stderr } = hooklens(["show", "--db", db]);
    expect(status).toBe(2);
    expect(stderr).toContain("show takes exactly one session id");
  });
});

describe("a database the CLI cannot read", () => {
  it("exits 2 for a missing file, naming it, and does not create it", () => {
    for (const command of [["sessions"], ["show", "x"]]) {
      const { status, stderr } = hooklens([...command, "--db", "nowhere.db"]);
      expect(status).toBe(2);
      expect(stderr).toContain(`no signal database at ${temp.dir}/nowhere.db`);
    }
    expect(hooklens(["sessions", "--db", "nowhere.db"]).status).toBe(2);
  });

  it("exits 2 for a file that is not a SQLite database", () => {
    const garbage = temp.path("garbage.db");
    writeFileSync(garbage, "definitely not sqlite\n".repeat(100));
    const { status, stderr } = hooklens(["sessions", "--db", garbage]);
    expect(status).toBe(2);
    expect(stderr).toBe(`hooklens: ${garbage} is not a SQLite database (it does not start with the SQLite header)\n`);
  });

  it("exits 2 for a database of a newer schema version", async () => {
    const newer = temp.path("newer.db");
    (await SqliteSignalStore.open(newer)).close();
    const raw = new Database(newer);
    raw.exec("PRAGMA user_version = 99");
    raw.close();
    const { status, stderr } = hooklens(["show", "s", "--db", newer]);
    expect(status).toBe(2);
    expect(stderr).toContain(`${newer} uses signal schema version 99`);
  });
});
