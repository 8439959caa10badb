import type { SignalFrame } from "@hooklens/runtime/live";
import type { SignalEntry } from "./model/callGroup.js";
import type { SignalAddress } from "./model/signalDocument.js";
import type { LiveRun, LiveSession, SignalStore } from "./signalStore.js";

/** A signal found in the store, with the run and session that hold it. */
export interface FoundSignal {
  readonly run: LiveRun;
  readonly session: LiveSession;
  readonly entry: SignalEntry;
}

/** The signal a document URI names, while the store still holds it. */
export function signalAt(store: SignalStore, address: SignalAddress): FoundSignal | null {
  const run = store.run(address.runId);
  const session = run?.sessions.get(address.sessionId);
  if (!run || !session) return null;
  const entries = session.model.entries;
  // Sequence numbers only grow, so the entries are sorted by them.
  let low = 0;
  let high = entries.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const seq = entries[middle]!.seq;
    if (seq === address.seq) return { run, session, entry: entries[middle]! };
    if (seq < address.seq) low = middle + 1;
    else high = middle - 1;
  }
  return null;
}

/** Finds a frame the view holds (the same object, else the same session and id), newest runs first. */
export function findFrame(store: SignalStore, frame: SignalFrame): FoundSignal | null {
  const runs = store.runs().reverse();
  for (const byIdentity of [true, false]) {
    for (const run of runs) {
      const session = run.sessions.get(frame.sessionId);
      if (!session) continue;
      const entry = session.model.entries.find((candidate) => (byIdentity ? candidate.frame === frame : candidate.frame.id === frame.id));
      if (entry) return { run, session, entry };
    }
  }
  return null;
}

export function addressOf(found: FoundSignal): SignalAddress {
  return { runId: found.run.connectionId, sessionId: found.session.sessionId, seq: found.entry.seq };
}
