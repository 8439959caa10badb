import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HookSignal, sanitizeSignalPayload } from "@hooklens/runtime";
import { NotASignalDatabaseError, SignalStoreMissingError, SqliteSignalStore } from "@hooklens/runtime/store";
import { writeFileSync } from "node:fs";
import { listRecordedSessions, readRecordedSession } from "../../client/src/signals/recordingReader.js";
import { createTempDir } from "../helpers/tempDir.js";

let temp: ReturnType<typeof createTempDir>;
beforeEach(() => {
  temp = createTempDir("hooklens-recording-");
});
afterEach(() => temp.dispose());

async function record(file: string, sessionId: string, points: string[]): Promise<void> {
  const store = await SqliteSignalStore.open(file);
  points.forEach((point, i) => {
    const payload = sanitizeSignalPayload(new HookSignal(point as never, { i }));
    store.insertSessionSignal({ sessionId, kind: "HookSignal", opId: "", ts: 1_700_000_000 + i, payload });
  });
  await store.flush();
  store.close();
}

describe("reading a recorded signal database for the signals view", () => {
  it("lists the recorded sessions and reads one as frames, in recorded order", async () => {
    const file = temp.path("signals.db");
    await record(file, "first", ["session.start", "session.end"]);
    await record(file, "second", ["session.start", "tool.pre", "tool.post"]);
    expect((await listRecordedSessions(file)).map((s) => [s.sessionId, s.signalCount])).toEqual([
      ["first", 2],
      ["second", 3],
    ]);
    const { frames, skipped } = await readRecordedSession(file, "second");
    expect(skipped).toBe(0);
    expect(frames.map((f) => [f.id, f.payload["point"]])).toEqual([
      ["#1", "session.start"],
      ["#2", "tool.pre"],
      ["#3", "tool.post"],
    ]);
  });

  it("counts rows no frame can carry instead of failing the session", async () => {
    const file = temp.path("signals.db");
    const store = await SqliteSignalStore.open(file);
    store.insertSessionSignal({ sessionId: "s", kind: "HookSignal", opId: "", ts: 1, payload: { point: "tool.pre" } });
    store.insertSessionSignal({ sessionId: "s", kind: "", opId: "", ts: 2, payload: { point: "tool.post" } });
    await store.flush();
    store.close();
    const { frames, skipped } = await readRecordedSession(file, "s");
    expect(frames).toHaveLength(1);
    expect(skipped).toBe(1);
  });

  it("never creates a missing file and names a file that is not a signal database", async () => {
    await expect(listRecordedSessions(temp.path("missing.db"))).rejects.toBeInstanceOf(SignalStoreMissingError);
    const garbage = temp.path("garbage.db");
    writeFileSync(garbage, "not sqlite at all\n".repeat(200));
    await expect(readRecordedSession(garbage, "s")).rejects.toBeInstanceOf(NotASignalDatabaseError);
    await expect(readRecordedSession(garbage, "s")).rejects.toThrow(garbage);
  });
});
