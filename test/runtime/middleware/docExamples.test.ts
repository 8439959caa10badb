import { describeDocExamples, examplesIn } from "../../helpers/docExamples.js";

// The complete middleware program (examples/hooks.ts) has its own test; these are the page's embedded examples.
describeDocExamples("docs/runtime/middleware.md", examplesIn("examples/middleware"));
