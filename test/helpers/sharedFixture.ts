import { tmpdir } from "node:os";
import { removeLeftByEndedWorkers } from "./endedWorkers.js";
import { createFixture, type Fixture } from "./fixtureProject.js";

const PREFIX = "hooklens-shared-fixture-";

/** A fixture folder a worker keeps for all its test files (named with its pid, removed once it ended). */
export function createSharedFixture(runtime: "resolved" | "missing"): Fixture {
  return createFixture(runtime, `${PREFIX}${process.pid}-`);
}

/** Removes the shared fixture folders of test workers that have ended. */
export function removeEndedSharedFixtures(): void {
  removeLeftByEndedWorkers(tmpdir(), (name) => (name.startsWith(PREFIX) ? Number(name.slice(PREFIX.length).split("-")[0]) || undefined : undefined));
}
