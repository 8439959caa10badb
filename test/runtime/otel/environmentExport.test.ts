// HOOKLENS_OTEL=1 beside exportToOpenTelemetry() in one real program: a session or bare IModel
// exported to the global provider explicitly is traced once there (not once per way of turning the
// export on), and a bare IModel whose recorder the variable set can still be exported explicitly.
import { describe, expect, it } from "vitest";
import { runExample } from "../../helpers/docExamples.js";

describe("HOOKLENS_OTEL=1 with exportToOpenTelemetry() in the same program", () => {
  it("one trace per session or model on the global provider; a tracer of one's own gets its copy too", async () => {
    const { stdout, stderr, code } = await runExample("test/runtime/otel/fixtures/environmentAndCall.mts", { HOOKLENS_OTEL: "1" });
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout.trim())).toEqual({
      global: ["chat bare-model,session", "execute_tool explicitTool,session", "execute_tool ownTracerTool,session", "execute_tool variableTool,session"],
      own: ["execute_tool ownTracerTool,session"],
    });
  });
});
