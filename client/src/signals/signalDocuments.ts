import * as vscode from "vscode";
import { SIGNAL_SCHEME, formatSignalQuery, parseSignalQuery, signalDocumentText, signalDocumentTitle } from "./model/signalDocument.js";
import { addressOf, signalAt, type FoundSignal } from "./signalLookup.js";
import type { SignalStore } from "./signalStore.js";

/**
 * Serves `hooklens-signal:` documents: read-only JSON views of one signal, titled like
 * `tool.error · refund.json`. VS Code never marks them dirty or asks to save them.
 */
export class SignalDocumentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly store: SignalStore) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const address = parseSignalQuery(uri.query);
    const found = address && signalAt(this.store, address);
    if (!found) return `${JSON.stringify({ summary: "This signal is no longer held by the Signals view (its run was removed, cleared or evicted)." }, null, 2)}\n`;
    return signalDocumentText(found.entry);
  }
}

export function signalUri(found: FoundSignal): vscode.Uri {
  return vscode.Uri.from({ scheme: SIGNAL_SCHEME, path: `/${signalDocumentTitle(found.entry)}`, query: formatSignalQuery(addressOf(found)) });
}

export async function openSignalDocument(found: FoundSignal, preserveFocus = false): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(signalUri(found));
  return vscode.window.showTextDocument(document, { preview: true, preserveFocus });
}
