import { randomBytes } from "node:crypto";
import * as vscode from "vscode";
import type { SignalFrame } from "@hooklens/runtime/live";
import type { LiveRun, SignalStore } from "../signals/signalStore.js";
import { TimelineFeed } from "./feed.js";
import { layoutSessions } from "./layout.js";
import { parseFromWebview, type FromWebview, type TimelineRun, type ToWebview } from "./protocol.js";
import { timelineSettings } from "./settings.js";
import { timelineHtml } from "./timelineHtml.js";

export const SHOW_TIMELINE_COMMAND = "hooklens.timeline.show";
const VIEW_TYPE = "hooklens.timeline";
/** Where the webview's script and stylesheet are built (scripts/build.mjs); the only folder it may load from. */
const ASSETS = ["dist", "client", "timeline"];
/** Shortest pause between two posts of a live run; longer when laying out takes long (see #schedule). */
const MIN_POST_INTERVAL_MS = 250;

/** Opens a signal of a run in an editor; the timeline does not care how. */
export type SignalOpener = (signal: SignalFrame, run: LiveRun) => Thenable<unknown>;

/**
 * The "HookLens Timeline" webview: one run as a waterfall, following it while it is live. One
 * panel at a time; showing it again reveals it. Changes of the store are batched into at most
 * a post every {@link MIN_POST_INTERVAL_MS} (longer for huge runs), carrying only changed bars.
 */
export class TimelinePanel implements vscode.Disposable {
  static #current: TimelinePanel | undefined;

  /** The open panel, if any. */
  static current(): TimelinePanel | undefined {
    return TimelinePanel.#current;
  }

  /** Shows the timeline (creating it when needed) for `runId`, or for the newest run when none is given. */
  static show(extensionUri: vscode.Uri, store: SignalStore, openSignal: SignalOpener, runId?: number): TimelinePanel {
    const panel = TimelinePanel.#current ?? new TimelinePanel(extensionUri, store, openSignal);
    TimelinePanel.#current = panel;
    if (runId !== undefined) panel.#pinnedRunId = runId;
    panel.#panel.reveal(undefined, false);
    panel.#schedule(0);
    return panel;
  }

  readonly #panel: vscode.WebviewPanel;
  readonly #feed: TimelineFeed;
  readonly #disposables: vscode.Disposable[] = [];
  readonly #posted = new vscode.EventEmitter<ToWebview>();
  /** Fires with every message posted to the webview (the e2e suite reads what was sent). */
  readonly onDidPost = this.#posted.event;
  /** The run the user picked; null follows the newest run. */
  #pinnedRunId: number | null = null;
  #ready = false;
  #timer: NodeJS.Timeout | undefined;
  #lastLayoutMs = 0;

  private constructor(
    extensionUri: vscode.Uri,
    private readonly store: SignalStore,
    private readonly openSignal: SignalOpener,
  ) {
    this.#feed = new TimelineFeed(timelineSettings().maxBars);
    const assets = vscode.Uri.joinPath(extensionUri, ...ASSETS);
    this.#panel = vscode.window.createWebviewPanel(VIEW_TYPE, "HookLens Timeline", vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [assets],
    });
    const { webview } = this.#panel;
    webview.html = timelineHtml({
      cspSource: webview.cspSource,
      nonce: randomBytes(16).toString("base64"),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(assets, "timeline.js")).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(assets, "timeline.css")).toString(),
    });
    const unsubscribe = store.onDidChange(() => this.#schedule(MIN_POST_INTERVAL_MS));
    this.#disposables.push(
      { dispose: unsubscribe },
      this.#panel.webview.onDidReceiveMessage((message: unknown) => void this.handleMessage(message)),
      this.#panel.onDidDispose(() => this.dispose()),
    );
  }

  /** The run shown now, or null when there is none. */
  get runId(): number | null {
    return this.#shownRun()?.connectionId ?? null;
  }

  /** Handles one message from the webview; anything that is not a valid message is ignored. */
  async handleMessage(message: unknown): Promise<void> {
    const parsed: FromWebview | null = parseFromWebview(message);
    if (!parsed) return;
    switch (parsed.type) {
      case "ready":
        // A (re)loaded page holds nothing: send it everything.
        this.#ready = true;
        this.#feed.invalidate();
        this.#post();
        return;
      case "selectRun":
        this.#pinnedRunId = parsed.runId;
        this.#post();
        return;
      case "openSignal": {
        const run = this.#shownRun();
        const signal = run?.sessions.get(parsed.sessionId)?.signals.find((candidate) => candidate.id === parsed.signalId);
        if (run && signal) await this.openSignal(signal, run);
        return;
      }
    }
  }

  dispose(): void {
    if (TimelinePanel.#current === this) TimelinePanel.#current = undefined;
    clearTimeout(this.#timer);
    for (const disposable of this.#disposables.splice(0)) disposable.dispose();
    this.#posted.dispose();
    this.#panel.dispose();
  }

  #shownRun(): LiveRun | undefined {
    const runs = this.store.runs();
    if (this.#pinnedRunId !== null) {
      const pinned = runs.find((run) => run.connectionId === this.#pinnedRunId);
      if (pinned) return pinned;
    }
    return runs.findLast((run) => run.connected) ?? runs[runs.length - 1];
  }

  /** Posts after `delayMs` unless a post is already due; a huge run is laid out less often. */
  #schedule(delayMs: number): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#post();
    }, Math.max(delayMs, delayMs === 0 ? 0 : this.#lastLayoutMs * 4));
  }

  #post(): void {
    if (!this.#ready) return;
    const run = this.#shownRun();
    const started = performance.now();
    const sessions = run ? [...run.sessions.values()].map((session) => session.model) : [];
    const message = this.#feed.next(this.#runList(), run?.connectionId ?? null, layoutSessions(sessions));
    this.#lastLayoutMs = performance.now() - started;
    if (!message) return;
    void this.#panel.webview.postMessage(message);
    this.#posted.fire(message);
  }

  #runList(): TimelineRun[] {
    return this.store.runs().map((run) => ({ runId: run.connectionId, title: runTitle(run), live: run.connected }));
  }
}

function runTitle(run: LiveRun): string {
  if (run.recordedFrom !== null) return `${run.title} (recorded)`;
  return `${run.title || "program"} · pid ${run.pid}${run.connected ? " · live" : ""}`;
}
