import { describeDocExamples, examplesIn } from "../../helpers/docExamples.js";

describeDocExamples("docs/runtime/tool.md", examplesIn("examples/tool"));
