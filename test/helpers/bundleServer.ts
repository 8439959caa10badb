import { inject } from "vitest";
import { serverBundles, type ServerBundles } from "./serverBundles.js";

/**
 * The server and CLI bundled as the extension ships them. The test run bundles them once, before
 * any suite (test/setup/globalSetup.ts), so a test file's setup never waits on esbuild; run
 * outside that setup, this bundles them itself.
 */
export async function bundleServer(): Promise<ServerBundles> {
  return inject("serverBundles") ?? (await serverBundles());
}
