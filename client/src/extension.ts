import * as vscode from "vscode";
import { LIMIT_SETTINGS, readLimitSettings } from "./signals/limitSettings.js";
import { provideLiveEnvironment } from "./signals/liveEnvironment.js";
import { OPEN_RECORDING_COMMAND, openRecording } from "./signals/openRecording.js";
import { SignalStore } from "./signals/signalStore.js";
import type { SignalTreeProvider } from "./signals/signalTree.js";
import { SignalsView } from "./signals/signalsView.js";
import { startWorkspaceLiveServer } from "./signals/workspaceLiveServer.js";
import { startLanguageClient } from "./languageClient.js";
import { registerScaffoldCommands } from "./scaffold/command.js";
import { registerTimelineCommand } from "./timeline/command.js";
import { registerRestartServerCommand } from "./lsp/restartServer.js";
import { ConnectionLog } from "./status/connectionLog.js";
import { DebugReveal } from "./status/debugReveal.js";
import { SignalStatusItem } from "./status/statusItem.js";
import { revealSignalsView } from "./status/views.js";
import { TimelinePanel } from "./timeline/timelinePanel.js";

/** What the extension exposes to other extensions and to its end-to-end tests. */
export interface HookLensApi {
  /** The HOOKLENS_LIVE value handed to terminals and debug sessions. */
  liveEnvironmentValue: string;
  signals: SignalStore;
  /** The data provider behind the "HookLens Signals" view. */
  signalTree: SignalTreeProvider;
  /** The Signals view: its trees (own container and Run and Debug), filters and mode. */
  signalsView: SignalsView;
  /** The open "HookLens Timeline" panel, if any ("HookLens: Show Timeline" opens it). */
  timeline(): TimelinePanel | undefined;
  /** The status-bar item's current text. */
  statusText(): string;
  /** How many times the Signals view was brought forward by a debug session's first signal. */
  debugReveals(): number;
}

export async function activate(context: vscode.ExtensionContext): Promise<HookLensApi> {
  const limits = readLimitSettings(vscode.workspace.getConfiguration("hooklens.signals"));
  const signals = new SignalStore(limits.store);
  const log = vscode.window.createOutputChannel("HookLens", { log: true });
  const connections = new ConnectionLog(log, signals);
  context.subscriptions.push(log, connections);
  const live = await startWorkspaceLiveServer(
    context,
    connections.wrap({
      onFrame: (peer, frame, bytes) => signals.handleFrame(peer, frame, bytes),
      onDisconnect: (peer) => signals.disconnect(peer),
    }),
    limits.live,
    log,
  );
  connections.watchStats(() => live.stats);
  context.subscriptions.push({ dispose: () => void live.close() });
  provideLiveEnvironment(context, live.environmentValue);
  // A changed limit is in force at once, no window reload.
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!Object.values(LIMIT_SETTINGS).some((setting) => event.affectsConfiguration(`hooklens.signals.${setting.key}`))) return;
      const changed = readLimitSettings(vscode.workspace.getConfiguration("hooklens.signals"));
      live.setLimits(changed.live);
      signals.setLimits(changed.store);
    }),
  );

  const view = new SignalsView(signals);
  const debugReveal = new DebugReveal(signals, revealSignalsView);
  context.subscriptions.push(
    view,
    vscode.commands.registerCommand("hooklens.signals.clear", () => signals.clear()),
    vscode.commands.registerCommand(OPEN_RECORDING_COMMAND, (args?: unknown) => openRecording(signals, args)),
    registerScaffoldCommands(),
    registerTimelineCommand(context, signals),
    debugReveal,
  );
  const status = new SignalStatusItem(signals);
  context.subscriptions.push(status);

  const client = await startLanguageClient(context, log);
  context.subscriptions.push({ dispose: () => void client.stop() }, registerRestartServerCommand(client, log));

  return {
    liveEnvironmentValue: live.environmentValue,
    signals,
    signalTree: view.provider,
    signalsView: view,
    timeline: () => TimelinePanel.current(),
    statusText: () => status.text,
    debugReveals: () => debugReveal.reveals,
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
