import type * as vscode from "vscode";
import type { LiveFrame } from "@hooklens/runtime/live";
import type { LivePeer, LiveServerEvents, LiveServerStats } from "../signals/liveServer.js";
import type { SignalStore } from "../signals/signalStore.js";

/** How often refusals (which raise no event) are looked for and logged. */
const STATS_CHECK_MS = 5_000;

/**
 * Wraps the live server's events so that the output channel tells the story of each connection:
 * who connected, how many signals it sent, when it left, and every refused connection or
 * skipped line (counted by the server) as it happens.
 */
export class ConnectionLog implements vscode.Disposable {
  #reported: LiveServerStats | null = null;
  #stats: (() => LiveServerStats) | null = null;
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly store: SignalStore,
  ) {
    this.#timer = setInterval(() => this.#reportStats(), STATS_CHECK_MS);
    this.#timer.unref();
  }

  /** The server's counters, read after each event and every few seconds. */
  watchStats(stats: () => LiveServerStats): void {
    this.#stats = stats;
    this.#reported = { ...stats() };
  }

  /** `events`, with each connection and disconnection logged first. */
  wrap(events: LiveServerEvents): LiveServerEvents {
    return {
      onFrame: (peer: LivePeer, frame: LiveFrame, bytes: number) => {
        events.onFrame(peer, frame, bytes);
        if (frame.type === "hello") this.log.info(`${describePeer(peer)} connected (live signal protocol ${frame.protocol})`);
        else if (frame.type === "dropped") this.log.warn(`${describePeer(peer)} could not send ${frame.count} signals (its queue was full)`);
      },
      onDisconnect: (peer: LivePeer) => {
        events.onDisconnect?.(peer);
        const run = this.store.runs().find((candidate) => candidate.connectionId === peer.connectionId);
        const signals = run ? [...run.sessions.values()].reduce((sum, session) => sum + session.signals.length + session.evicted, 0) : 0;
        const sessions = run?.sessions.size ?? 0;
        this.log.info(`${describePeer(peer)} disconnected after ${signals} signals in ${sessions} session${sessions === 1 ? "" : "s"}`);
        this.#reportStats();
      },
    };
  }

  dispose(): void {
    clearInterval(this.#timer);
  }

  #reportStats(): void {
    if (!this.#stats || !this.#reported) return;
    const now = this.#stats();
    const before = this.#reported;
    const news: string[] = [];
    const delta = (key: keyof LiveServerStats, words: string): void => {
      const count = now[key] - before[key];
      if (count > 0) news.push(`${count} ${words}`);
    };
    delta("rejectedConnections", "connection(s) refused: the first line was not a hello with this editor's token");
    delta("helloTimeouts", "connection(s) closed: no hello in time");
    delta("refusedConnections", "program(s) refused: too many programs streaming at once (hooklens.signals.live.maxConnections)");
    delta("displacedConnections", "silent connection(s) closed to make room for new ones (hooklens.signals.live.maxPendingConnections)");
    delta("malformedLines", "line(s) skipped: not a valid frame");
    delta("oversizedLines", "line(s) skipped: too long");
    for (const line of news) this.log.warn(`live server: ${line}`);
    this.#reported = { ...now };
  }
}

function describePeer(peer: LivePeer): string {
  return `${peer.hello.title || "a program"} (pid ${peer.hello.pid}, connection ${peer.connectionId})`;
}
