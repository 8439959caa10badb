import { basename } from "node:path";
import type { LiveFrame, SignalFrame } from "@hooklens/runtime/live";
import type { LivePeer } from "./liveServer.js";
import { SessionModel } from "./model/sessionModel.js";
import { summarizeSession } from "./model/recordingSummary.js";
import { SIGNALS_DROPPED_KIND, shortId } from "./model/signalFacts.js";

/** Signals kept per session by default; older ones are evicted (and counted) beyond this. */
export const MAX_SIGNALS_PER_SESSION = 100_000;

export interface LiveSession {
  sessionId: string;
  /** The signals kept, in arrival order (a live `dropped` frame appears as a `SignalsDropped` marker). */
  signals: SignalFrame[];
  /** Signals evicted because the session exceeded the store's `maxSignalsPerSession`, or the store its `maxMegabytes`. */
  evicted: number;
  /** Each kept signal's size in bytes (its line as sent, or its JSON text), parallel to `signals`. */
  sizes: number[];
  /** The sum of `sizes`. */
  bytes: number;
  /** The same signals grouped for the view (calls by call id, branches, counts). */
  model: SessionModel;
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
  /**
   * Signals kept per session (default {@link MAX_SIGNALS_PER_SESSION}). A live session over it
   * drops its oldest hundredth at once (at least one): eviction only touches the signals
   * it drops, so a small step keeps each redraw quick and costs little per signal.
   */
  maxSignalsPerSession?: number;
  /**
   * Megabytes of signal text kept in all (default 128). Past it the oldest ended runs go first,
   * then the oldest signals of every session, each giving its share, down to a hundredth below it.
   */
  maxMegabytes?: number;
}

export const DEFAULT_SIGNAL_STORE_LIMITS: Readonly<Required<SignalStoreLimits>> = {
  maxRuns: 100,
  maxSessionsPerRun: 1_000,
  maxSignalsPerSession: MAX_SIGNALS_PER_SESSION,
  maxMegabytes: 128,
};

/** What the store evicted to stay within its limits. */
export interface SignalStoreStats {
  evictedRuns: number;
  evictedSessions: number;
  /** Signals evicted to keep within `maxMegabytes`. */
  evictedForBytes: number;
}

/**
 * What the signals view shows: program runs → sessions → signals, in arrival order. Plain data
 * with a change callback, so it is tested without VS Code and read by the e2e suite.
 */
export class SignalStore {
  readonly #runs = new Map<number, LiveRun>();
  #limits: Readonly<Required<SignalStoreLimits>>;
  readonly stats: SignalStoreStats = { evictedRuns: 0, evictedSessions: 0, evictedForBytes: 0 };
  /** Bytes of every signal held (the sum of every session's `sizes`). */
  #bytes = 0;
  readonly #listeners = new Set<() => void>();
  /** Recordings get negative ids, so they never collide with a connection's. */
  #lastRecordingId = 0;
  /** Per run: the session that received the latest signal (where a live drop is marked). */
  readonly #lastSession = new Map<number, LiveSession>();
  /** Runs opened from a signal database (one recorded session each). */
  readonly #databaseRuns = new Set<number>();
  /** Per run: signals reported dropped before any session existed to mark them in. */
  readonly #pendingDrops = new Map<number, number>();

  constructor(limits: SignalStoreLimits = {}) {
    this.#limits = withDefaults(limits);
  }

  /** The bounds in force. */
  get limits(): Readonly<Required<SignalStoreLimits>> {
    return this.#limits;
  }

  /**
   * Puts new bounds in force at once (a settings change): what is held beyond them is evicted now,
   * oldest first and counted as usual, and the views are told. A limit not given returns to its default.
   */
  setLimits(limits: SignalStoreLimits): void {
    this.#limits = withDefaults(limits);
    this.#boundRuns();
    for (const run of this.#runs.values()) {
      this.#boundSessions(run);
      for (const session of run.sessions.values()) this.#evictOldest(session, session.signals.length - this.#limits.maxSignalsPerSession);
    }
    this.#boundBytes();
    this.#changed();
  }

  /** Bytes of signal text held in all (what `maxMegabytes` bounds). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Takes one frame of a program run; `bytes` is its line's length (measured here when not given). */
  handleFrame(peer: LivePeer, frame: LiveFrame, bytes?: number): void {
    const run = this.#runFor(peer);
    switch (frame.type) {
      case "hello":
        break;
      case "signal": {
        let session = run.sessions.get(frame.sessionId);
        if (!session) {
          run.sessions.set(frame.sessionId, (session = newSession(frame.sessionId)));
          this.#boundSessions(run);
          this.#forgetRecordedCopies(frame.sessionId);
        }
        const pending = this.#pendingDrops.get(run.connectionId);
        if (pending !== undefined) {
          this.#pendingDrops.delete(run.connectionId);
          this.#append(session, droppedMarker(frame.sessionId, pending, run.dropped));
        }
        this.#append(session, frame, bytes);
        this.#lastSession.set(run.connectionId, session);
        this.#boundBytes(run);
        break;
      }
      case "dropped": {
        run.dropped += frame.count;
        // The program lost these between the last signal it sent and the next: mark the spot.
        const session = this.#lastSession.get(run.connectionId);
        if (session && run.sessions.get(session.sessionId) === session) this.#append(session, droppedMarker(session.sessionId, frame.count, run.dropped));
        else this.#pendingDrops.set(run.connectionId, (this.#pendingDrops.get(run.connectionId) ?? 0) + frame.count);
        break;
      }
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
    // The recording of a session a program run shows is that run: show it once.
    const live = this.liveRunWithSession(sessionId);
    if (live) return live;
    const run = this.addRecordedRun(file, `${basename(file)} · ${shortId(sessionId)}`, new Map([[sessionId, signals]]));
    this.#databaseRuns.add(run.connectionId);
    const program = summarizeSession(run.sessions.get(sessionId)!.model).program;
    if (program) run.title = `${program} · ${shortId(sessionId)}`;
    return run;
  }

  /**
   * Shows sessions read from a file (a database or an NDJSON export) as one ended run. A run
   * from the same file holding any of these sessions is replaced, so reopening never duplicates.
   */
  addRecordedRun(file: string, title: string, sessions: ReadonlyMap<string, readonly SignalFrame[]>, dropped = 0): LiveRun {
    for (const [id, run] of this.#runs) {
      if (run.recordedFrom === file && [...sessions.keys()].some((sessionId) => run.sessions.has(sessionId))) this.#runs.delete(id);
    }
    const run: LiveRun = { connectionId: --this.#lastRecordingId, pid: 0, title, connected: false, recordedFrom: file, dropped, sessions: new Map() };
    this.#runs.set(run.connectionId, run);
    for (const [sessionId, signals] of sessions) {
      const kept = signals.slice(-this.#limits.maxSignalsPerSession);
      const session = newSession(sessionId);
      session.evicted = signals.length - kept.length;
      run.sessions.set(sessionId, session);
      for (const frame of kept) this.#append(session, frame);
      this.#boundBytes(run);
    }
    this.#boundRuns(run);
    this.#changed();
    return run;
  }

  /** The program run (not a recording) that holds this session, if one is shown. */
  liveRunWithSession(sessionId: string): LiveRun | undefined {
    for (const run of this.#runs.values()) if (run.recordedFrom === null && run.sessions.has(sessionId)) return run;
    return undefined;
  }

  /**
   * A program run now shows this session: database recordings of it leave the view (an NDJSON
   * export is a file the user chose to open, and stays).
   */
  #forgetRecordedCopies(sessionId: string): void {
    for (const [id, run] of this.#runs) {
      const session = run.sessions.get(sessionId);
      if (!this.#databaseRuns.has(id) || !session) continue;
      this.#dropSession(run, sessionId, session);
      if (run.sessions.size === 0) this.#runs.delete(id);
    }
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

  run(connectionId: number): LiveRun | undefined {
    return this.#runs.get(connectionId);
  }

  /** Removes one run from the view (a connected program keeps streaming into a fresh run). */
  removeRun(connectionId: number): boolean {
    const run = this.#runs.get(connectionId);
    if (run) this.#dropRun(run);
    this.#lastSession.delete(connectionId);
    this.#pendingDrops.delete(connectionId);
    if (run) this.#changed();
    return run !== undefined;
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
    this.#bytes = 0;
    this.#lastSession.clear();
    this.#pendingDrops.clear();
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
  #boundRuns(added?: LiveRun): void {
    let excess = this.#runs.size - this.#limits.maxRuns;
    for (const run of this.#runs.values()) {
      if (excess <= 0) return;
      if (run.connected || run === added) continue;
      this.#dropRun(run);
      this.stats.evictedRuns++;
      excess--;
    }
  }

  /** Evicts a run's oldest sessions until at most `maxSessionsPerRun` remain. */
  #boundSessions(run: LiveRun): void {
    for (const id of run.sessions.keys()) {
      if (run.sessions.size <= this.#limits.maxSessionsPerRun) return;
      this.#dropSession(run, id, run.sessions.get(id)!);
      this.stats.evictedSessions++;
    }
  }

  /**
   * Keeps the bytes held within `maxMegabytes`: the oldest ended runs go first (never `keep`),
   * then each session lets go of its oldest signals in proportion to its size (so every session
   * keeps its newest), down to a hundredth below the bound so a full store does not evict on every signal.
   */
  #boundBytes(keep?: LiveRun): void {
    const max = this.#limits.maxMegabytes * 1024 * 1024;
    if (this.#bytes <= max) return;
    const target = max - Math.floor(max / 100);
    for (const run of this.#runs.values()) {
      if (this.#bytes <= target) return;
      if (run.connected || run === keep) continue;
      this.#dropRun(run);
      this.stats.evictedRuns++;
    }
    const total = this.#bytes;
    const need = total - target;
    for (const run of this.#runs.values()) {
      for (const session of run.sessions.values()) {
        const share = (session.bytes * need) / total;
        let count = 0;
        for (let freed = 0; freed < share && count < session.sizes.length; ) freed += session.sizes[count++]!;
        this.#evictOldest(session, count);
        this.stats.evictedForBytes += count;
      }
    }
  }

  #dropRun(run: LiveRun): void {
    for (const [id, session] of run.sessions) this.#dropSession(run, id, session);
    this.#runs.delete(run.connectionId);
  }

  #dropSession(run: LiveRun, id: string, session: LiveSession): void {
    this.#bytes -= session.bytes;
    run.sessions.delete(id);
  }

  #append(session: LiveSession, frame: SignalFrame, bytes = frameBytes(frame)): void {
    session.signals.push(frame);
    session.sizes.push(bytes);
    session.bytes += bytes;
    this.#bytes += bytes;
    session.model.add(frame);
    const max = this.#limits.maxSignalsPerSession;
    // A hundredth more than the excess, so a full session does not evict on every signal
    // (eviction touches only what it drops: small steps keep each redraw quick).
    if (session.signals.length > max) this.#evictOldest(session, session.signals.length - max + Math.floor(max / 100));
  }

  #evictOldest(session: LiveSession, count: number): void {
    if (count <= 0) return;
    session.signals.splice(0, count);
    for (const size of session.sizes.splice(0, count)) {
      session.bytes -= size;
      this.#bytes -= size;
    }
    session.model.dropOldest(count);
    session.evicted += count;
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}

function newSession(sessionId: string): LiveSession {
  return { sessionId, signals: [], evicted: 0, sizes: [], bytes: 0, model: new SessionModel(sessionId) };
}

/** A frame's size when its line was not measured (a recording, an export): its JSON text. */
function frameBytes(frame: SignalFrame): number {
  return JSON.stringify(frame).length;
}

/** The marker a live `dropped` frame becomes: the same kind and payload the stores write. */
function droppedMarker(sessionId: string, count: number, runTotal: number): SignalFrame {
  return {
    type: "signal",
    sessionId,
    branchId: null,
    id: `dropped-${runTotal}`,
    kind: SIGNALS_DROPPED_KIND,
    createdAt: Date.now() / 1000,
    payload: { count, reason: "the program could not send them to the editor" },
  };
}

function withDefaults(limits: SignalStoreLimits): Required<SignalStoreLimits> {
  return {
    maxRuns: limits.maxRuns ?? DEFAULT_SIGNAL_STORE_LIMITS.maxRuns,
    maxSessionsPerRun: limits.maxSessionsPerRun ?? DEFAULT_SIGNAL_STORE_LIMITS.maxSessionsPerRun,
    maxSignalsPerSession: limits.maxSignalsPerSession ?? DEFAULT_SIGNAL_STORE_LIMITS.maxSignalsPerSession,
    maxMegabytes: limits.maxMegabytes ?? DEFAULT_SIGNAL_STORE_LIMITS.maxMegabytes,
  };
}
