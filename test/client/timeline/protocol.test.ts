import { describe, expect, it } from "vitest";
import { parseFromWebview } from "../../../client/src/timeline/protocol.js";
import { timelineHtml } from "../../../client/src/timeline/timelineHtml.js";

describe("messages from the timeline webview", () => {
  it.each([
    ["ready", { type: "ready" }],
    ["a click on a bar", { type: "openSignal", sessionId: "s-1", signalId: "e49cb63d" }],
    ["a run picked", { type: "selectRun", runId: -2 }],
  ])("accepts %s", (_why, message) => {
    expect(parseFromWebview(message)).toEqual(message);
  });

  it.each([
    ["no type", { signalId: "x" }],
    ["an unknown type (the page may not ask for anything else)", { type: "runCommand", command: "workbench.action.quit" }],
    ["a signal id of the wrong type", { type: "openSignal", sessionId: "s", signalId: 42 }],
    ["an empty signal id", { type: "openSignal", sessionId: "s", signalId: "" }],
    ["a huge signal id", { type: "openSignal", sessionId: "s", signalId: "x".repeat(300) }],
    ["a run id that is not an integer", { type: "selectRun", runId: 1.5 }],
    ["not an object", "ready"],
    ["null", null],
  ])("rejects %s", (_why, message) => {
    expect(parseFromWebview(message)).toBeNull();
  });
});

describe("the timeline page", () => {
  const html = timelineHtml({ cspSource: "https://file+.vscode-resource.vscode-cdn.net", nonce: "bm9uY2U=", scriptUri: "https://x/timeline.js", styleUri: "https://x/timeline.css" });
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? "";

  it("allows nothing by default and only the nonced script, never inline code or eval", () => {
    expect(csp.split("; ")).toEqual([
      "default-src 'none'",
      "style-src https://file+.vscode-resource.vscode-cdn.net",
      "script-src 'nonce-bm9uY2U='",
      "img-src https://file+.vscode-resource.vscode-cdn.net",
      "font-src https://file+.vscode-resource.vscode-cdn.net",
    ]);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  });

  it("loads exactly one script, with the nonce, and no inline script or style", () => {
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain('<script nonce="bm9uY2U=" src="https://x/timeline.js"></script>');
    expect(html).not.toMatch(/<style|style="|onclick=/);
  });
});
