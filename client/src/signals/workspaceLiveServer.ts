import type * as vscode from "vscode";
import { freshLiveAddress, newLiveToken, stableLiveAddress, type LiveAddress } from "./liveAddress.js";
import { LiveServer, type LiveServerEvents, type LiveServerLimits } from "./liveServer.js";

const TOKEN_KEY = "hooklens.live.token";

/**
 * Starts the window's live server at the workspace's stable address, so terminals opened before a
 * window reload (which keep the HOOKLENS_LIVE they were given) still reach it; falls back to a
 * fresh address (and says why) when the stable one cannot be used. Logs where it listens.
 */
export async function startWorkspaceLiveServer(
  context: vscode.ExtensionContext,
  events: LiveServerEvents,
  limits: LiveServerLimits,
  log: vscode.LogOutputChannel,
): Promise<LiveServer> {
  const key = context.storageUri?.toString();
  if (key !== undefined) {
    try {
      let token = context.workspaceState.get<string>(TOKEN_KEY);
      if (typeof token !== "string" || !/^[0-9a-f]{32}$/.test(token)) {
        token = newLiveToken();
        await context.workspaceState.update(TOKEN_KEY, token);
      }
      const live = await LiveServer.start(events, limits, stableLiveAddress(key, token));
      log.info(
        `live server: listening at ${live.endpoint}, this workspace's address: terminals opened before a window reload stream here too` +
          (live.tookOver ? " (took over the socket an earlier window left behind)" : ""),
      );
      return live;
    } catch (error) {
      log.warn(`live server: this workspace's address cannot be used (${error instanceof Error ? error.message : String(error)}); listening at a new one, so terminals opened before this window started stream nowhere: open a new terminal`);
    }
  }
  const address: LiveAddress = freshLiveAddress();
  const live = await LiveServer.start(events, limits, address);
  log.info(`live server: listening at ${live.endpoint}; terminals and Node debug sessions get HOOKLENS_LIVE`);
  return live;
}
