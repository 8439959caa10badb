// Issue 33: an awaited flushLive() keeps its stated bound. With an editor that reads nothing, it
// returns once the editor took nothing for 5 s (AWAITED_FLUSH_STALL_MS, the figure session.md
// states), whatever else the program still has going on, and the program then exits.
import net from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { LIVE_ENV } from "@hooklens/runtime";
import { AWAITED_FLUSH_STALL_MS } from "../../../runtime/src/live/connection.js";
import { bundledFixture } from "../../helpers/bundledFixture.js";
import { runNode } from "../../helpers/runNode.js";
import { testTempDir } from "../../helpers/tempDir.js";

const PROGRAM = fileURLToPath(new URL("./fixtures/flushStalled.mts", import.meta.url));
/** Room for a late timer on a loaded machine; the flush used to take 6.5 s, or never returned. */
const SLACK_MS = 1_500;
const HANG_MS = 40_000;

let server: net.Server | null = null;
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = null;
});

describe("an awaited flushLive() against an editor that reads nothing", () => {
  it.each(["none", "timer", "server"])("returns within the stated bound (the program's other work: %s)", async (other) => {
    const endpoint = join(testTempDir("hooklens-flush-bound-"), "live.sock");
    server = net.createServer((socket) => {
      sockets.push(socket);
      socket.pause();
    });
    await new Promise<void>((resolve) => server!.listen(endpoint, resolve));
    const { code, signal, stdout, stderr } = await runNode([bundledFixture(PROGRAM), other], {
      hangMs: HANG_MS,
      env: { ...process.env, [LIVE_ENV]: `${endpoint}?token=${"ef".repeat(16)}` },
    });
    expect(signal, `hung; stdout: ${stdout}; stderr: ${stderr}`).toBeNull();
    expect(code, stderr).toBe(0);
    const took = Number(/flush returned after (\d+) ms/.exec(stdout)?.[1]);
    // It waits the whole bound (an editor may be slow), and not much longer.
    expect(took).toBeGreaterThanOrEqual(AWAITED_FLUSH_STALL_MS - 100);
    expect(took).toBeLessThanOrEqual(AWAITED_FLUSH_STALL_MS + SLACK_MS);
    // What the editor never read is counted when the program exits.
    expect(stderr).toMatch(/Dropped [\d,]+ signal/);
  }, HANG_MS + 30_000);
});
