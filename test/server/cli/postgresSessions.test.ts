// `hooklens sessions` and `hooklens show` reading a PostgreSQL database, through the built CLI
// bundle (server/dist/cli.cjs), which requires pg from node_modules.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSignalStore } from "@hooklens/runtime";
import { builtCli } from "../../helpers/builtCli.js";
import { PASSWORD_USER, startPostgres, type PostgresServer } from "../../helpers/postgres.js";
import { RECORDED_ROWS, RECORDED_T0 } from "../../helpers/signalRecords.js";

let cli: string;
let server: PostgresServer;
let url: string;
let target: string;

const T0 = RECORDED_T0;
const rows = RECORDED_ROWS;

beforeAll(async () => {
  cli = builtCli();
  server = await startPostgres();
  await server.createDatabase("recorded");
  // Written as the password role, so the CLI is tested with a password in the URL.
  url = server.url("recorded", PASSWORD_USER);
  target = `postgres://${PASSWORD_USER.user}@127.0.0.1:${server.port}/recorded`;
  const store = await PostgresSignalStore.open(url);
  for (const row of rows) store.insertSessionSignal(row);
  await store.close();
});
afterAll(() => server?.dispose());

/** Runs the built CLI asynchronously (the server runs in this process, so spawnSync would not do). */
function hooklens(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, HOOKLENS_DB: "", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("hooklens sessions and show against PostgreSQL", () => {
  it("sessions lists each session, naming the database without its password", async () => {
    const { status, stdout, stderr } = await hooklens(["sessions", "--db", url]);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    expect(stdout.split("\n")).toEqual([
      "sess-alpha  2026-01-02T03:04:05.000Z  2026-01-02T03:04:08.000Z  3 signal(s)",
      "sess-beta   2026-01-02T03:04:06.000Z  2026-01-02T03:04:06.000Z  1 signal(s)",
      `2 session(s) in ${target}.`,
      "",
    ]);
    expect(stdout).not.toContain(PASSWORD_USER.password);
  });

  it("sessions --format json, and $HOOKLENS_DB with a postgresql:// URL instead of --db", async () => {
    const expected = [
      { sessionId: "sess-alpha", firstTs: T0, lastTs: T0 + 3, signalCount: 3 },
      { sessionId: "sess-beta", firstTs: T0 + 1, lastTs: T0 + 1, signalCount: 1 },
    ];
    const [viaOption, viaEnv] = await Promise.all([
      hooklens(["sessions", "--db", url, "--format", "json"]),
      hooklens(["sessions", "--format", "json"], { HOOKLENS_DB: url.replace(/^postgres:/, "postgresql:") }),
    ]);
    expect(JSON.parse(viaOption.stdout)).toEqual(expected);
    expect(viaEnv.status).toBe(0);
    expect(JSON.parse(viaEnv.stdout)).toEqual(expected);
  });

  it("show prints one session's signals in recorded order, as text and as JSON", async () => {
    const [text, json] = await Promise.all([hooklens(["show", "sess-alpha", "--db", url]), hooklens(["show", "sess-alpha", "--db", url, "--format", "json"])]);
    expect(text.status).toBe(0);
    expect(text.stdout.split("\n")).toEqual([
      '2026-01-02T03:04:05.000Z  HookSignal   -     point=tool.pre payload={"tool":"search"}',
      "2026-01-02T03:04:07.500Z  NodeStarted  op-7  data=line one line two",
      '2026-01-02T03:04:08.000Z  Signal       -     truncated (40000 bytes): {"createdAt":1,"data":"zzzz',
      "3 signal(s) in session sess-alpha.",
      "",
    ]);
    expect(JSON.parse(json.stdout)).toEqual(rows.filter((r) => r.sessionId === "sess-alpha"));
  });

  it("show exits 2 for an unknown session and names the recorded ones", async () => {
    const { status, stdout, stderr } = await hooklens(["show", "sess-gamma", "--db", url]);
    expect(status).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe(`hooklens: no session "sess-gamma" in ${target}; recorded sessions: sess-alpha, sess-beta\n`);
  });

  it("an empty database has no sessions, and the CLI creates nothing in it", async () => {
    const empty = await server.createDatabase("empty_db");
    const { status, stdout } = await hooklens(["sessions", "--db", empty]);
    expect(status).toBe(0);
    expect(stdout).toBe(`No recorded sessions in postgres://hooklens@127.0.0.1:${server.port}/empty_db.\n`);
    expect(await server.sql("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'", "empty_db")).toEqual([{ n: 0 }]);
  });
});

describe("a PostgreSQL database the CLI cannot read: exit 2, and never the password", () => {
  const secret = "Sh0uld-Never-Print";
  const cases: Array<[string, () => string, RegExp]> = [
    ["a wrong password", () => server.url("recorded", { user: PASSWORD_USER.user, password: secret }), /PostgreSQL refused the login to postgres:\/\/hooklens_pw@127\.0\.0\.1:\d+\/recorded/],
    ["a missing database", () => server.url("nope", { user: "hooklens", password: secret }), /no database at postgres:\/\/hooklens@127\.0\.0\.1:\d+\/nope \(database "nope" does not exist\)/],
    ["a port with no server", () => `postgres://hooklens:${secret}@127.0.0.1:1/recorded`, /cannot reach the PostgreSQL server of postgres:\/\/hooklens@127\.0\.0\.1:1\/recorded/],
  ];
  it.each(cases)("%s", async (_name, makeUrl, message) => {
    const runs = await Promise.all([["sessions"], ["show", "sess-alpha"]].map((command) => hooklens([...command, "--db", makeUrl()])));
    for (const { status, stdout, stderr } of runs) {
      expect(status).toBe(2);
      expect(stdout).toBe("");
      expect(stderr).toMatch(new RegExp(`^hooklens: ${message.source}`));
      expect(stderr + stdout).not.toContain(secret);
    }
  });
});
