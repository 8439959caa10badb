import { SqliteSignalStore, type RecordedSession } from "@hooklens/runtime/store";
import { recordedSignalFrame, type SignalFrame } from "@hooklens/runtime/live";

/** One recorded session, ready for the signals view. */
export interface RecordedSessionFrames {
  frames: SignalFrame[];
  /** Rows no frame could carry (written by something else): counted, not shown. */
  skipped: number;
}

/** The sessions recorded in a signal database, oldest first. Opens it read-only and closes it again. */
export async function listRecordedSessions(file: string): Promise<RecordedSession[]> {
  return withRecording(file, (store) => store.listSessions());
}

/** One session's signals as the frames a live run would have sent, in recorded order. */
export async function readRecordedSession(file: string, sessionId: string): Promise<RecordedSessionFrames> {
  return withRecording(file, (store) => {
    const frames: SignalFrame[] = [];
    let skipped = 0;
    store.listSessionSignals(sessionId).forEach((record, index) => {
      const frame = recordedSignalFrame(record, index + 1);
      if (frame) frames.push(frame);
      else skipped++;
    });
    return { frames, skipped };
  });
}

async function withRecording<T>(file: string, read: (store: SqliteSignalStore) => T): Promise<T> {
  const store = await SqliteSignalStore.open(file, { readOnly: true });
  try {
    return read(store);
  } finally {
    store.close();
  }
}
