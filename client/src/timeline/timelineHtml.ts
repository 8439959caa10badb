/** Where the page may load from and with which nonce; all four come from the webview. */
export interface TimelinePageSources {
  /** The webview's own resource origin (`webview.cspSource`). */
  cspSource: string;
  /** A fresh random value per page: the only script allowed to run carries it. */
  nonce: string;
  scriptUri: string;
  styleUri: string;
}

/**
 * The timeline page under a strict Content-Security-Policy: nothing by default, the extension's
 * bundled stylesheet and script only (the script by nonce), no inline code, no network.
 */
export function timelineHtml({ cspSource, nonce, scriptUri, styleUri }: TimelinePageSources): string {
  const csp = [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${cspSource}`,
    `font-src ${cspSource}`,
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(styleUri)}">
<title>HookLens Timeline</title>
</head>
<body>
<header class="toolbar">
  <label>Run <select id="run"></select></label>
  <span id="summary" class="summary"></span>
  <span class="spacer"></span>
  <button id="zoom-out" type="button" title="Zoom out (-)" aria-label="Zoom out">−</button>
  <button id="zoom-fit" type="button" title="Fit the run to the window (0)">Fit</button>
  <button id="zoom-in" type="button" title="Zoom in (+)" aria-label="Zoom in">+</button>
</header>
<p id="empty" class="empty">No signals yet. Run a program that uses @hooklens/runtime in a VS Code terminal or debug session: its tool and model calls appear here as they happen.</p>
<div id="scroller" class="scroller" tabindex="-1">
  <div id="axis" class="axis"></div>
  <div id="rows" class="rows" role="list" aria-label="Calls of the run"></div>
</div>
<script nonce="${escapeAttribute(nonce)}" src="${escapeAttribute(scriptUri)}"></script>
</body>
</html>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
