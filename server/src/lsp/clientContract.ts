/**
 * What the HookLens server and the VS Code extension agree on beyond standard LSP. The server works
 * with any client; these only let the extension do better where VS Code can.
 */

/**
 * Opens a rule's documentation; arguments `[code, docsUrl]`. The extension runs it itself (the
 * Markdown preview, read-only); for other clients the server runs it through window/showDocument.
 */
export const SHOW_RULE_DOCUMENTATION_COMMAND = "hooklens.showRuleDocumentation";

/**
 * Set by the extension under `capabilities.experimental` in `initialize`: the client handles
 * SHOW_RULE_DOCUMENTATION_COMMAND itself, so the server must not register it.
 */
export const CLIENT_SHOWS_RULE_DOCUMENTATION = "hooklensShowsRuleDocumentation";
