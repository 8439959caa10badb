/**
 * Two sinks the leak tests read as raw bytes: a live endpoint (a real Unix socket the runtime is
 * pointed at through HOOKLENS_LIVE) and the files of a SQLite database, WAL and journal included.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { LIVE_ENV } from "@hooklens/runtime";
import { resetLiveForTests } from "../../runtime/src/live/publisher.js";

/** Listens on `socketPath`, points the runtime's live stream at it; `bytes()` is all it received. */
export async function captureLiveFrames(socketPath: string): Promise<{ bytes: () => string; close: () => Promise<void> }> {
  const sockets: net.Socket[] = [];
  let received = "";
  const server = net.createServer((socket) => {
    sockets.push(socket);
    socket.on("data", (chunk) => (received += chunk.toString("utf8")));
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  process.env[LIVE_ENV] = `${socketPath}?token=${"cd".repeat(16)}`;
  resetLiveForTests();
  return {
    bytes: () => received,
    close: async () => {
      delete process.env[LIVE_ENV];
      resetLiveForTests();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The bytes of every file in `dir` whose name starts with `prefix` (the database and its side files). */
export function databaseFileBytes(dir: string, prefix: string): string {
  return readdirSync(dir)
    .filter((name) => name.startsWith(prefix) && statSync(path.join(dir, name)).isFile())
    .map((name) => readFileSync(path.join(dir, name)).toString("latin1"))
    .join("\n");
}
