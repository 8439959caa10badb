import { SqliteSignalStore, type RecordedSession } from "@hooklens/runtime/store";
import { recordedSignalFrame, type SignalFrame } from "@hooklens/runtime/live";
import { summarizeSession, type RecordingSummary } from "./model/recordingSummary.js";
import { SessionModel } from "./model/sessionModel.js";

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
  return withRecording(file, (store) => framesOf(store, sessionId));
}

/** Summaries already made, by file and session; a session that gained signals since is read again. */
const summaries = new Map<string, { signalCount: number; lastTs: number; summary: RecordingSummary }>();
const MAX_CACHED_SUMMARIES = 2_000;

/**
 * Summarises each of `sessions` (as {@link listRecordedSessions} gave them) in turn, opening the
 * file once, and hands each summary to `onSummary` as soon as it is made; yields between sessions
 * so a picker stays responsive, and stops early once `cancelled()` says so.
 */
export async function summarizeRecordedSessions(
  file: string,
  sessions: readonly RecordedSession[],
  onSummary: (summary: RecordingSummary) => void,
  cancelled: () => boolean = () => false,
): Promise<void> {
  const pending: RecordedSession[] = [];
  for (const session of sessions) {
    const cached = summaries.get(summaryKey(file, session.sessionId));
    if (cached && cached.signalCount === session.signalCount && cached.lastTs === session.lastTs) onSummary(cached.summary);
    else pending.push(session);
  }
  if (pending.length === 0 || cancelled()) return;
  const store = await SqliteSignalStore.open(file, { readOnly: true });
  try {
    for (const session of pending) {
      if (cancelled()) return;
      const model = new SessionModel(session.sessionId);
      for (const frame of framesOf(store, session.sessionId).frames) model.add(frame);
      const summary = summarizeSession(model);
      if (summaries.size >= MAX_CACHED_SUMMARIES) summaries.delete(summaries.keys().next().value!);
      summaries.set(summaryKey(file, session.sessionId), { signalCount: session.signalCount, lastTs: session.lastTs, summary });
      onSummary(summary);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    store.close();
  }
}

function summaryKey(file: string, sessionId: string): string {
  return `${file}\0${sessionId}`;
}

function framesOf(store: SqliteSignalStore, sessionId: string): RecordedSessionFrames {
  const frames: SignalFrame[] = [];
  let skipped = 0;
  store.listSessionSignals(sessionId).forEach((record, index) => {
    const frame = recordedSignalFrame(record, index + 1);
    if (frame) frames.push(frame);
    else skipped++;
  });
  return { frames, skipped };
}

async function withRecording<T>(file: string, read: (store: SqliteSignalStore) => T): Promise<T> {
  const store = await SqliteSignalStore.open(file, { readOnly: true });
  try {
    return read(store);
  } finally {
    store.close();
  }
}
