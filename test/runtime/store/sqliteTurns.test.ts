// Issue 33, item 6: while programs write a signal database, a reader (hooklens sessions/show, the
// editor's recordings) can read it and a new writer can open it: each waits its turn at the lock
// (within busyTimeoutMs, 30 s by default) instead of failing after a lost race. Real processes:
// writers committing a batch every 20 ms, then a bounded number of new writers and readers at once.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteSignalStore } from "@hooklens/runtime";
import { REPO_ROOT } from "../../helpers/fixtureProject.js";
import { bundledFixture } from "../../helpers/bundledFixture.js";
import { runNode } from "../../helpers/runNode.js";
import { createTempDir } from "../../helpers/tempDir.js";

const PROGRAM = fileURLToPath(new URL("./fixtures/lockContender.mts", import.meta.url));
const WRITERS = 2;
const OPENERS = 4;
const READERS = 4;
/** Only tells an end from a hang. */
const HANG_MS = 120_000;

let temp: ReturnType<typeof createTempDir>;
const running: ChildProcessWithoutNullStreams[] = [];
beforeEach(() => (temp = createTempDir("hooklens-sqlite-turns-")));
afterEach(() => {
  for (const child of running.splice(0)) child.kill("SIGKILL");
  temp.dispose();
});

/** A writer that commits every turn until told to stop; resolves its lines in order. */
function startWriter(path: string, sessionId: string): { child: ChildProcessWithoutNullStreams; nextLine: () => Promise<string> } {
  const child = spawn(process.execPath, [bundledFixture(PROGRAM), "writer", path, sessionId], { cwd: REPO_ROOT });
  running.push(child);
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return {
    child,
    nextLine: async () => {
      const next = await lines.next();
      if (next.done) throw new Error(`writer ${sessionId} ended early: ${stderr}`);
      return next.value;
    },
  };
}

describe("readers and new writers while programs write", () => {
  it("every read-only open and every new writer gets its turn; nothing is dropped", async () => {
    const path = temp.path("busy.db");
    (await SqliteSignalStore.open(path)).close();
    const writers = Array.from({ length: WRITERS }, (_, i) => startWriter(path, `writer-${i}`));
    expect(await Promise.all(writers.map((w) => w.nextLine()))).toEqual(Array(WRITERS).fill("writing"));

    const program = bundledFixture(PROGRAM);
    const contenders = [
      ...Array.from({ length: OPENERS }, (_, i) => runNode([program, "opener", path, `opener-${i}`], { hangMs: HANG_MS })),
      ...Array.from({ length: READERS }, () => runNode([program, "reader", path], { hangMs: HANG_MS })),
    ];
    const results = (await Promise.all(contenders)).map(({ signal, stdout, stderr }) => {
      expect(signal, `killed as hung; stderr: ${stderr}`).toBeNull();
      return JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as { ok?: true; error?: string; message?: string; dropped?: number };
    });
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(results.filter((r) => (r.dropped ?? 0) > 0)).toEqual([]);

    for (const w of writers) w.child.stdin.write("stop\n");
    const finals = (await Promise.all(writers.map((w) => w.nextLine()))).map((line) => JSON.parse(line) as { written: number; dropped: number });
    expect(finals.map((f) => f.dropped)).toEqual(Array(WRITERS).fill(0));

    const store = await SqliteSignalStore.open(path, { readOnly: true });
    try {
      const counts = new Map(store.listSessions().map((s) => [s.sessionId, s.signalCount]));
      for (let i = 0; i < OPENERS; i++) expect(counts.get(`opener-${i}`)).toBe(5);
      for (let i = 0; i < WRITERS; i++) expect(counts.get(`writer-${i}`)).toBe(finals[i]!.written);
    } finally {
      store.close();
    }
  }, HANG_MS + 60_000);
});
