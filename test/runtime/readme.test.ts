import { describeDocExamples } from "../helpers/docExamples.js";

// The package README (what npm shows) embeds a program that must run as printed.
describeDocExamples("runtime/README.md", ["examples/package/quickStart.ts"]);
