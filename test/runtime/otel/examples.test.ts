import { describeDocExamples, examplesIn } from "../../helpers/docExamples.js";

describeDocExamples("docs/runtime/otel.md", examplesIn("examples/otel"));
