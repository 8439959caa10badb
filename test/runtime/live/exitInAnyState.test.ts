// Issue 32: a program always exits, whatever state its live connection is in and however it ends,
// against a receiver that accepts the connection and never reads (a frozen editor). What it could
// not hand over is counted in one stderr line, and every signal is either received or counted.
import { spawn } from "node:child_process";
import net from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { LIVE_ENV } from "@hooklens/runtime";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";
import { bundledFixture } from "../../helpers/bundledFixture.js";
import { testTempDir } from "../../helpers/tempDir.js";

const PROGRAM = fileURLToPath(new URL("./fixtures/endInState.mts", import.meta.url));
/** The promise: the program is gone within this long after its last statement. */
const EXIT_BOUND_MS = 5_000;
/** Only tells a hang from an exit; a hung program is killed then and the case fails. */
const HANG_MS = 30_000;

const states = ["connecting", "unread", "backlog"] as const;
const endings = [
  { ending: "end", code: 0 },
  { ending: "exit", code: 0 },
  { ending: "throw", code: 1 },
] as const;
const cases = states.flatMap((state) => endings.map(({ ending, code }) => ({ state, ending, code })));

let server: net.Server | null = null;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = null;
});

/** A receiver that accepts and never reads, until `readAll` reads every connection to its end. */
async function frozenEditor(): Promise<{ live: string; readAll(): Promise<string> }> {
  const endpoint = join(testTempDir("hooklens-exit-state-"), "live.sock");
  const sockets: net.Socket[] = [];
  server = net.createServer((socket) => {
    socket.pause();
    sockets.push(socket);
  });
  await new Promise<void>((resolve) => server!.listen(endpoint, resolve));
  const readAll = () =>
    Promise.all(
      sockets.map(
        (socket) =>
          new Promise<string>((resolve) => {
            let text = "";
            socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
            socket.on("close", () => resolve(text));
            socket.on("error", () => undefined);
            socket.resume();
          }),
      ),
    ).then((texts) => texts.join(""));
  return { live: `${endpoint}?token=${"cd".repeat(16)}`, readAll };
}

function run(live: string, state: string, ending: string) {
  const child = spawn(process.execPath, [bundledFixture(PROGRAM), state, ending], {
    cwd: REPO_ROOT,
    env: { ...process.env, [LIVE_ENV]: live },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const hang = setTimeout(() => child.kill("SIGKILL"), HANG_MS);
  return new Promise<{ code: number | null; killed: boolean; stdout: string; stderr: string; exitedAt: number }>((resolve) =>
    child.on("exit", (code, signal) => {
      clearTimeout(hang);
      resolve({ code, killed: signal !== null, stdout, stderr, exitedAt: Date.now() });
    }),
  );
}

/** Complete signal lines in what the receiver got (a line cut by the exit does not count). */
function receivedSignals(text: string): number {
  return text.split("\n").slice(0, -1).filter((line) => line.startsWith('{"type":"signal"')).length;
}

describe("a program exits within 5 s of its last statement against an editor that never reads", () => {
  it.each(cases)("connection $state, program ends by $ending", async ({ state, ending, code }) => {
    const editor = await frozenEditor();
    const result = await run(editor.live, state, ending);
    expect(result.killed, `hung; stderr: ${result.stderr}`).toBe(false);
    expect(result.code, result.stderr).toBe(code);
    const lastAt = Number(/last statement at (\d+)/.exec(result.stdout)?.[1]);
    expect(result.exitedAt - lastAt).toBeLessThanOrEqual(EXIT_BOUND_MS);

    const dropLines = result.stderr.split("\n").filter((line) => /Dropped/.test(line));
    expect(dropLines.length, result.stderr).toBeLessThanOrEqual(1);
    expect(result.stderr).not.toMatch(/live view/);
    const dropped = Number((/Dropped ([\d,]+) signal/.exec(dropLines[0] ?? "")?.[1] ?? "0").replaceAll(",", ""));
    const emitted = Number(/emitted (\d+)/.exec(result.stdout)?.[1]);
    // Every signal either reached the receiver's socket or is in the count.
    expect(receivedSignals(await editor.readAll()) + dropped).toBe(emitted);
    if (state === "backlog") expect(dropped).toBeGreaterThan(0);
  }, HANG_MS + 30_000);
});
