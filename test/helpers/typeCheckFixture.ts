import { join } from "node:path";
import { Project } from "ts-morph";
import type { Fixture } from "./fixtureProject.js";
import { createSharedFixture } from "./sharedFixture.js";

/**
 * One fixture folder and one ts-morph project per worker (see analyzeFixture.ts): building a
 * program over the runtime's sources, lib and @types/node is what made each check take seconds.
 * Each check gets a file of its own, removed again afterwards.
 */
let shared: { fixture: Fixture; project: Project; checks: number } | undefined;

/**
 * The type errors of a `main.ts` with this source, compiled in a fixture folder where
 * `@hooklens/runtime` resolves to the repository's runtime (as after installing it). Used to show
 * that a quick fix leaves code that still compiles.
 */
export function typeErrors(source: string): string[] {
  if (!shared) {
    const fixture = createSharedFixture("resolved");
    // A tsconfig that matches no file when it is read makes every program report "No inputs were found".
    fixture.write("placeholder.ts", "export {};\n");
    shared = { fixture, project: new Project({ tsConfigFilePath: fixture.path("tsconfig.json"), skipAddingFilesFromTsConfig: true }), checks: 0 };
  }
  const file = shared.project.createSourceFile(join(shared.fixture.dir, `check-${++shared.checks}`, "main.ts"), source);
  try {
    return file.getPreEmitDiagnostics().map((d) => {
      const text = d.getMessageText();
      return typeof text === "string" ? text : text.getMessageText();
    });
  } finally {
    shared.project.removeSourceFile(file);
  }
}
