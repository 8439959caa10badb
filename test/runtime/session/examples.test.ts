import { describeDocExamples, examplesIn } from "../../helpers/docExamples.js";

describeDocExamples("docs/runtime/session.md", examplesIn("examples/session"));
