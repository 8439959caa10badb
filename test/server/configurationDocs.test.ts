import { describeDocExamples } from "../helpers/docExamples.js";

// The silencing comments it shows are checked by test/server/ownSources.test.ts: the analyzer
// reports nothing on that file, though it registers handlers on two dormant points.
describeDocExamples("docs/configuration.md", ["examples/configuration/silencing.ts"]);
