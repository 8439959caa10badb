import { basename } from "node:path";
import type { LiveFrame, SignalFrame } from "@hooklens/runtime/live";
import type { LivePeer } from "./liveServer.js";

/** Signals kept per session; older ones are evicted (and counted) beyond this. */
export const MAX_SIGNALS_PER_SESSION = 5_000;

export interface LiveSession {
  sessionId: string;
  signals: SignalFrame[];
  /** Signals evicted because the session exceeded {@link MAX_SIGNALS_PER_SESSION}. */
  evicted: number;
}

/** One connected (or finished) program run and the sessions it reported, or sessions opened from a recording. */
export interface LiveRun {
  connectionId: number;
  pid: number;
  title: string;
  connected: boolean;
  /** The file the sessions were read from, for a recording; null for a program run. */
  recordedFrom: string | null;
  /** Frames the program reported it could not send. */
  dropped: number;
  sessions: Map<string, LiveSession>;
}

/** Bounds on what the store keeps; every field has a default. */
export interface SignalStoreLimits {
  /** Runs kept; beyond this the oldest ended runs are evicted (default 100). Connected runs stay. */
  maxRuns?: number;
  /** Sessions kept per run; beyond this the run's oldest session is evicted (default 1,000). */
  maxSessionsPerRun?: number;
}

export const DEFAULT_SIGNAL_STORE_LIMITS: Readonly<Required<SignalStoreLimits>> = { maxRuns: 100, maxSessionsPerRun: 1_000 };

/** What the store evicted to stay within its limits. */
export interface SignalStoreStats {
  evictedRuns: number;
  evictedSessions: number;
}

/**
 * What the signals view shows: program runs → sessions → signals, in arrival order. Plain data
 * with a change callback, so it is tested without VS Code and read by the e2e suite.
 */
export class SignalStore {
  readonly #runs = new Map<number, LiveRun>();
  readonly limits: Readonly<Required<SignalStoreLimits>>;
  readonly stats: SignalStoreStats = { evictedRuns: 0, evictedSessions: 0 };
  readonly #listeners = new Set<() => void>();
  /** Recordings get negative ids, so they never collide with a connection's. */
  #lastRecordingId = 0;

  constructor(limits: SignalStoreLimits = {}) {
    this.limits = {
      maxRuns: limits.maxRuns ?? DEFAULT_SIGNAL_STORE_LIMITS.maxRuns,
      maxSessionsPerRun: limits.maxSessionsPerRun ?? DEFAULT_SIGNAL_STORE_LIMITS.maxSessionsPerRun,
    };
  }

  handleFrame(peer: LivePeer, frame: LiveFrame): void {
    const run = this.#runFor(peer);
    switch (frame.type) {
      case "hello":
        break;
      case "signal": {
        let session = run.sessions.get(frame.sessionId);
        if (!session) {
          run.sessions.set(frame.sessionId, (session = { sessionId: frame.sessionId, signals: [], evicted: 0 }));
          this.#boundSessions(run);
        }
        session.signals.push(frame);
        if (session.signals.length > MAX_SIGNALS_PER_SESSION) {
          session.signals.shift();
          session.evicted++;
        }
        break;
      }
      case "dropped":
        run.dropped += frame.count;
        break;
      case "bye":
        run.connected = false;
        break;
    }
    this.#changed();
  }

  /**
   * Shows a recorded session like a live one: as an ended run titled after its file, holding
   * the session's signals in their recorded order. Opening the same session again replaces it.
   */
  addRecordedSession(file: string, sessionId: string, signals: readonly SignalFrame[]): LiveRun {
    for (const [id, run] of this.#runs) {
      if (run.recordedFrom === file && run.sessions.has(sessionId)) this.#runs.delete(id);
    }
    const kept = signals.slice(-MAX_SIGNALS_PER_SESSION);
    const session: LiveSession = { sessionId, signals: kept, evicted: signals.length - kept.length };
    const run: LiveRun = {
      connectionId: --this.#lastRecordingId,
      pid: 0,
      title: `${basename(file)} · ${sessionId.slice(0, 8)}`,
      connected: false,
      recordedFrom: file,
      dropped: 0,
      sessions: new Map([[sessionId, session]]),
    };
    this.#runs.set(run.connectionId, run);
    this.#boundRuns(run);
    this.#changed();
    return run;
  }

  disconnect(peer: LivePeer): void {
    const run = this.#runs.get(peer.connectionId);
    if (run?.connected) {
      run.connected = false;
      this.#changed();
    }
  }

  runs(): LiveRun[] {
    return [...this.#runs.values()];
  }

  /** Every signal of every run, for a quick look-up by id or point. */
  allSignals(): SignalFrame[] {
    return this.runs().flatMap((run) => [...run.sessions.values()].flatMap((session) => session.signals));
  }

  /** How many signals are held, without copying them. */
  signalCount(): number {
    let count = 0;
    for (const run of this.#runs.values()) for (const session of run.sessions.values()) count += session.signals.length;
    return count;
  }

  clear(): void {
    this.#runs.clear();
    this.#changed();
  }

  /** Calls `listener` after every change; returns a function that unsubscribes. */
  onDidChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #runFor(peer: LivePeer): LiveRun {
    let run = this.#runs.get(peer.connectionId);
    if (!run) {
      run = { connectionId: peer.connectionId, pid: peer.hello.pid, title: peer.hello.title, connected: true, recordedFrom: null, dropped: 0, sessions: new Map() };
      this.#runs.set(peer.connectionId, run);
      this.#boundRuns(run);
    }
    return run;
  }

  /** Evicts the oldest ended runs (Map order is arrival order), never `added`, until at most `maxRuns` remain. */
  #boundRuns(added: LiveRun): void {
    let excess = this.#runs.size - this.limits.maxRuns;
    for (const [id, run] of this.#runs) {
      if (excess <= 0) return;
      if (run.connected || run === added) continue;
      this.#runs.delete(id);
      this.stats.evictedRuns++;
      excess--;
    }
  }

  /** Evicts a run's oldest sessions until at most `maxSessionsPerRun` remain. */
  #boundSessions(run: LiveRun): void {
    for (const id of run.sessions.keys()) {
      if (run.sessions.size <= this.limits.maxSessionsPerRun) return;
      run.sessions.delete(id);
      this.stats.evictedSessions++;
    }
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}
