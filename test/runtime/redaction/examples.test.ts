import { describeDocExamples, examplesIn } from "../../helpers/docExamples.js";

describeDocExamples("docs/runtime/redaction.md", examplesIn("examples/redaction"));
