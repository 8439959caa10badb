import type { TestProject } from "vitest/node";
import { removeEndedFixtureBundles } from "../helpers/bundledFixture.js";
import { serverBundles, type ServerBundles } from "../helpers/serverBundles.js";
import { removeEndedSharedFixtures } from "../helpers/sharedFixture.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The bundled server and CLI every protocol and CLI test runs as a child process. */
    serverBundles: ServerBundles;
  }
}

/**
 * Runs once before every suite: bundling the server (seconds when idle, a minute on a loaded
 * machine) belongs here, not in a per-file hook with a time limit.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  project.provide("serverBundles", await serverBundles());
  return () => {
    removeEndedFixtureBundles();
    removeEndedSharedFixtures();
  };
}
