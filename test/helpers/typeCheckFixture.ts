import { Project } from "ts-morph";
import { createFixture } from "./fixtureProject.js";

/**
 * The type errors of `main.ts` with this source, compiled in a fixture folder where
 * `@hooklens/runtime` resolves to the repository's runtime (as after installing it). Used to show
 * that a quick fix leaves code that still compiles.
 */
export function typeErrors(source: string): string[] {
  const fixture = createFixture("resolved");
  try {
    const main = fixture.write("main.ts", source);
    const project = new Project({ tsConfigFilePath: fixture.path("tsconfig.json"), skipAddingFilesFromTsConfig: true });
    const file = project.addSourceFileAtPath(main);
    return file.getPreEmitDiagnostics().map((d) => {
      const text = d.getMessageText();
      return typeof text === "string" ? text : text.getMessageText();
    });
  } finally {
    fixture.dispose();
  }
}
