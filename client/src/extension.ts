import * as vscode from "vscode";
import { LiveServer } from "./signals/liveServer.js";
import { provideLiveEnvironment } from "./signals/liveEnvironment.js";
import { OPEN_RECORDING_COMMAND, openRecording } from "./signals/openRecording.js";
import { SignalStore } from "./signals/signalStore.js";
import { SHOW_SIGNAL_COMMAND, SignalTreeProvider, showSignal } from "./signals/signalTree.js";
import { startLanguageClient } from "./languageClient.js";
import { registerScaffoldCommands } from "./scaffold/command.js";
import { registerTimelineCommand } from "./timeline/command.js";
import { TimelinePanel } from "./timeline/timelinePanel.js";

/** What the extension exposes to other extensions and to its end-to-end tests. */
export interface HookLensApi {
  /** The HOOKLENS_LIVE value handed to terminals and debug sessions. */
  liveEnvironmentValue: string;
  signals: SignalStore;
  /** The data provider behind the "HookLens Signals" view. */
  signalTree: SignalTreeProvider;
  /** The open "HookLens Timeline" panel, if any ("HookLens: Show Timeline" opens it). */
  timeline(): TimelinePanel | undefined;
}

export async function activate(context: vscode.ExtensionContext): Promise<HookLensApi> {
  const signals = new SignalStore();
  const live = await LiveServer.start({
    onFrame: (peer, frame) => signals.handleFrame(peer, frame),
    onDisconnect: (peer) => signals.disconnect(peer),
  });
  context.subscriptions.push({ dispose: () => void live.close() });
  provideLiveEnvironment(context, live.environmentValue);

  const tree = new SignalTreeProvider(signals);
  context.subscriptions.push(
    tree,
    vscode.window.registerTreeDataProvider("hooklens.signals", tree),
    vscode.commands.registerCommand("hooklens.signals.clear", () => signals.clear()),
    vscode.commands.registerCommand(SHOW_SIGNAL_COMMAND, showSignal),
    vscode.commands.registerCommand(OPEN_RECORDING_COMMAND, (args?: unknown) => openRecording(signals, args)),
    registerScaffoldCommands(),
    registerTimelineCommand(context, signals),
  );

  const client = await startLanguageClient(context);
  context.subscriptions.push({ dispose: () => void client.stop() });

  return { liveEnvironmentValue: live.environmentValue, signals, signalTree: tree, timeline: () => TimelinePanel.current() };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
