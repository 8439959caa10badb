import * as vscode from "vscode";
import { LIVE_ENV } from "@hooklens/runtime/live";

/** Debug types that launch Node programs (js-debug's current and legacy names). */
const NODE_DEBUG_TYPES = ["node", "pwa-node", "node-terminal"];

/**
 * Hands the live endpoint to programs the user starts from this editor: every integrated
 * terminal (through the extension's environment collection) and every Node debug session.
 */
export function provideLiveEnvironment(context: vscode.ExtensionContext, value: string): void {
  const collection = context.environmentVariableCollection;
  collection.description = "HookLens: stream session signals from @hooklens/runtime to the HookLens Signals view";
  collection.replace(LIVE_ENV, value);
  const provider: vscode.DebugConfigurationProvider = {
    resolveDebugConfiguration(_folder, configuration) {
      const env = (configuration["env"] ?? {}) as Record<string, string | null>;
      configuration["env"] = { ...env, [LIVE_ENV]: value };
      return configuration;
    },
  };
  for (const type of NODE_DEBUG_TYPES) context.subscriptions.push(vscode.debug.registerDebugConfigurationProvider(type, provider));
}
