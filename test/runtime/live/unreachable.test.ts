// Issue 32: the live view never goes silently dark. When HOOKLENS_LIVE names an address that does
// not answer (a VS Code window reloaded since the terminal opened: the socket is gone, refuses,
// or the editor there rejects the token), the program says so once on stderr, with what it
// tried and how to fix it, and otherwise runs and exits as usual.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { LIVE_ENV } from "@hooklens/runtime";
import { LiveServer } from "../../../client/src/signals/liveServer.js";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";
import { bundledFixture } from "../../helpers/bundledFixture.js";
import { testTempDir } from "../../helpers/tempDir.js";

const PROGRAM = fileURLToPath(new URL("./fixtures/liveUntilStdinEnds.mts", import.meta.url));
const HANG_MS = 40_000;
const TOKEN = "12".repeat(16);

let editor: LiveServer | null = null;
afterEach(async () => {
  await editor?.close();
  editor = null;
});

/** A socket file nobody listens on: its listener was killed, so nothing removed it. */
async function deadSocket(path: string): Promise<void> {
  const holder = spawn(process.execPath, ["-e", "require('net').createServer().listen(process.argv[1], () => console.log('up'))", path]);
  await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));
  holder.kill("SIGKILL");
  await new Promise((resolve) => holder.once("exit", resolve));
}

const cases = [
  {
    name: "the socket file is gone (the window that made it reloaded)",
    address: async (dir: string) => join(dir, "gone", "live.sock"),
    says: /nothing listens at .*live\.sock/,
  },
  {
    name: "the socket refuses (its editor died without removing it)",
    address: async (dir: string) => {
      const path = join(dir, "dead.sock");
      await deadSocket(path);
      return path;
    },
    says: /dead\.sock refused the connection/,
  },
  {
    name: "the editor there rejects the token (another window's)",
    address: async () => {
      editor = await LiveServer.start({ onFrame: () => undefined });
      return editor.endpoint;
    },
    says: /closed the live stream/,
  },
];

describe("a live address that does not answer is reported once, with the fix", () => {
  it.each(cases)("$name", async ({ address, says }) => {
    const endpoint = await address(testTempDir("hooklens-unreachable-"));
    const child = spawn(process.execPath, [bundledFixture(PROGRAM)], {
      cwd: REPO_ROOT,
      env: { ...process.env, [LIVE_ENV]: `${endpoint}?token=${TOKEN}` },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    let notice!: () => void;
    const noticed = new Promise<void>((resolve) => (notice = resolve));
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes("HookLens live view")) notice();
    });
    const hang = setTimeout(() => child.kill("SIGKILL"), HANG_MS);
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    // The program keeps running until told to end: the notice must come while it runs.
    await Promise.race([noticed, exited]);
    child.stdin.end();
    const code = await exited;
    clearTimeout(hang);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain("done");
    const lines = stderr.split("\n").filter((line) => line.length > 0);
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toMatch(says);
    expect(lines[0]).toMatch(/open a new terminal/i);
    expect(lines[0]).toContain("HOOKLENS_LIVE");
    // The token is a secret of the editor's: never printed.
    expect(stderr).not.toContain(TOKEN);
    if (editor) expect(editor.stats.rejectedConnections).toBe(1);
  }, HANG_MS + 30_000);
});
