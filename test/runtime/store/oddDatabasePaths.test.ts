// Issue 33, item 6: odd databases and paths never hang a program or the CLI. Each path is tried in
// a real process (a named pipe would block an open forever, a /proc file made a folder-creating
// loop spin): opened for writing, read-only, as the embedded default of a recording session
// (HOOKLENS_DB), and by `hooklens sessions --db`. Every one ends, with an error that says what is
// at the path.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundledFixture } from "../../helpers/bundledFixture.js";
import { runNode } from "../../helpers/runNode.js";
import { builtCli } from "../../helpers/builtCli.js";
import { createTempDir } from "../../helpers/tempDir.js";

const PROGRAM = fileURLToPath(new URL("./fixtures/oddDatabasePath.mts", import.meta.url));
/** Only tells an exit from a hang. */
const HANG_MS = 60_000;

interface OddPath {
  name: string;
  /** The path; each way of opening gets its own where a test could create something there. */
  path: (mode: string) => string;
  /** What the writer's and the reader's open throw (name, message), or null when the open succeeds. */
  write: [string, RegExp] | null;
  read: [string, RegExp];
  /** Whether a session recording to it as HOOKLENS_DB logs that error: only when something is at the path (the default is never created). */
  logged: boolean;
}

let temp: ReturnType<typeof createTempDir>;
let socketServer: net.Server;
beforeAll(async () => {
  temp = createTempDir("hooklens-odd-db-");
  mkdirSync(temp.path("folder"));
  execFileSync("mkfifo", [temp.path("fifo")]);
  symlinkSync(temp.path("nowhere"), temp.path("dangling"));
  symlinkSync(temp.path("fifo"), temp.path("to-fifo"));
  writeFileSync(temp.path("notes.txt"), "these are not the rows you are looking for\n".repeat(20));
  writeFileSync(temp.path("a-file"), "");
  socketServer = net.createServer();
  await new Promise<void>((resolve) => socketServer.listen(temp.path("socket"), resolve));
});
afterAll(async () => {
  await new Promise((resolve) => socketServer.close(resolve));
  temp.dispose();
});

const KERNEL: [string, RegExp] = ["SignalStorePathError", /reports a size of 0 yet has content: a kernel file/];
const CASES: OddPath[] = [
  { name: "/proc/version", path: () => "/proc/version", write: KERNEL, read: KERNEL, logged: true },
  { name: "/proc/self/status", path: () => "/proc/self/status", write: KERNEL, read: KERNEL, logged: true },
  { name: "a folder", path: () => temp.path("folder"), write: ["SignalStorePathError", /is a folder, not a database file/], read: ["SignalStorePathError", /is a folder/], logged: true },
  { name: "a named pipe", path: () => temp.path("fifo"), write: ["SignalStorePathError", /is a named pipe \(FIFO\), not a database file/], read: ["SignalStorePathError", /named pipe/], logged: true },
  { name: "a socket", path: () => temp.path("socket"), write: ["SignalStorePathError", /is a socket, not a database file/], read: ["SignalStorePathError", /is a socket/], logged: true },
  { name: "a dangling symbolic link", path: () => temp.path("dangling"), write: ["SignalStorePathError", /is a symbolic link to .*nowhere, which does not exist/], read: ["SignalStorePathError", /which does not exist/], logged: true },
  { name: "a symbolic link to a named pipe", path: () => temp.path("to-fifo"), write: ["SignalStorePathError", /is a named pipe \(FIFO\) \(through the symbolic link to .*fifo\)/], read: ["SignalStorePathError", /named pipe/], logged: true },
  { name: "/dev/null", path: () => "/dev/null", write: ["SignalStorePathError", /is a character device, not a database file/], read: ["SignalStorePathError", /character device/], logged: true },
  { name: "a path under a missing folder", path: (mode) => temp.path(`missing-${mode}/deeper/signals.db`), write: null, read: ["SignalStoreMissingError", /no signal database at/], logged: false },
  { name: "a folder that cannot be created", path: () => "/proc/hooklens-none/signals.db", write: ["SignalStoreUnwritableError", /cannot create the folder \/proc\/hooklens-none/], read: ["SignalStoreMissingError", /no signal database at/], logged: false },
  { name: "a path through a file", path: () => temp.path("a-file/signals.db"), write: ["SignalStoreUnwritableError", /cannot be created: a part of the path before its name is a file/], read: ["SignalStoreUnwritableError", /a part of the path before its name is a file/], logged: false },
  { name: "a text file", path: () => temp.path("notes.txt"), write: ["NotASignalDatabaseError", /is not a SQLite database/], read: ["NotASignalDatabaseError", /is not a SQLite database/], logged: true },
];

const run = (args: string[]) => runNode(args, { hangMs: HANG_MS });

async function outcome(path: string, mode: "write" | "read" | "bound"): Promise<Record<string, unknown>> {
  const { code, signal, stdout, stderr } = await run([bundledFixture(PROGRAM), path, mode]);
  expect(signal, `killed as hung; stderr: ${stderr}`).toBeNull();
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, unknown>;
}

describe("an odd database path", () => {
  it.concurrent.each(CASES)("$name: opening it for writing ends with a clear error or a new database", async ({ path, write }) => {
    const result = await outcome(path("write"), "write");
    if (write === null) expect(result).toEqual({ sessions: 0 });
    else expect(result).toMatchObject({ error: write[0], message: expect.stringMatching(write[1]) });
  }, HANG_MS + 30_000);

  it.concurrent.each(CASES)("$name: opening it read-only ends with a clear error", async ({ path, read }) => {
    expect(await outcome(path("read"), "read")).toMatchObject({ error: read[0], message: expect.stringMatching(read[1]) });
  }, HANG_MS + 30_000);

  it.concurrent.each(CASES)("$name: a session recording to it as HOOKLENS_DB goes on and exits, the error logged once", async ({ path, read, logged: expected }) => {
    const { logged } = (await outcome(path("bound"), "bound")) as { logged: string[] };
    // The default is used only when something is at the path; then its error is logged, once.
    expect(logged).toEqual(expected ? [expect.stringMatching(read[1])] : []);
  }, HANG_MS + 30_000);

  it.concurrent.each(CASES)("$name: hooklens sessions --db ends with exit code 2 and says what is there", async ({ path, read }) => {
    const { code, signal, stderr } = await run([builtCli(), "sessions", "--db", path("cli")]);
    expect(signal, `killed as hung; stderr: ${stderr}`).toBeNull();
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(read[0] === "SignalStoreMissingError" ? /no signal database at/ : read[1]);
  }, HANG_MS + 30_000);
});
