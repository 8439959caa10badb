import { describe, expect, it } from "vitest";
import { describeDocExamples, examplesIn, runExample } from "../../helpers/docExamples.js";

describeDocExamples("docs/runtime/service.md", ["examples/streaming-model.ts", ...examplesIn("examples/service")]);

describe("examples/streaming-model.ts", () => {
  it("prints the reply it streamed through its chunk handler", async () => {
    const { stdout } = await runExample("examples/streaming-model.ts");
    expect(stdout.trim()).toBe("Hooks run before, after and between chunks.[stop]");
  });
});
