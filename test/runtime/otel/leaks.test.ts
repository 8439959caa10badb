// Issue 14's planted secrets through the OpenTelemetry export with content capture on: tool
// arguments and results (act() and the Executor) and model requests and responses as data, and
// the text forms inside error messages and message text, reach span attributes, events and
// statuses only after the shared redaction rules ran. A visible marker planted beside the secrets
// proves the contents really were exported. (Structured values serialised into the middle of a
// sentence are out of the rules' reach; the plants here follow the leak suite's forms.)
import { describe, expect, it } from "vitest";
import {
  BranchTools,
  configureRedaction,
  Executor,
  IModel,
  IModelClient,
  ScriptedEndpoint,
  Session,
  Tool,
  type ToolArgs,
} from "@hooklens/runtime";
import { exportToOpenTelemetry } from "@hooklens/runtime/otel";
import {
  FORM_NAMES,
  leaksIn,
  plantedCases,
} from "../../helpers/plantedSecrets.js";
import { useCapturedLogs } from "../middleware/support.js";
import { memoryTracing } from "./support.js";

useCapturedLogs();

const MARKER = "visible-marker-otel";
const cases = plantedCases(20261202, FORM_NAMES.length * 4);

describe("planted secrets through the OpenTelemetry export (captureContent on)", () => {
  it("no span attribute, event or status carries them", async () => {
    const exportedText = await exportPlantedRun();
    expect(exportedText).toContain(MARKER);
    expect(leaksIn(exportedText, cases)).toEqual([]);
  });

  it("with the rules turned off the same run exports them (so the check above can see a leak)", async () => {
    configureRedaction({ enabled: false });
    try {
      expect(leaksIn(await exportPlantedRun(), cases).length).toBeGreaterThan(
        cases.length / 2,
      );
    } finally {
      configureRedaction();
    }
  });
});

/** The run with secrets planted everywhere, exported with content capture; all spans as JSON text. */
async function exportPlantedRun(): Promise<string> {
  const { provider, spans } = memoryTracing();
  const session = new Session();
  void session.hooks;
  const branch = session.newBranch();
  const tools = new BranchTools(branch).register(
    new Tool({
      name: "echo",
      funcCallable: (args: ToolArgs) => ({ echoed: args }),
    }),
  );
  tools.register(
    new Tool({
      name: "fail",
      funcCallable: (args: ToolArgs) => {
        throw new Error(`could not use ${textOf(args["planted"])}`);
      },
    }),
  );
  const model = new IModel({
    endpoint: new ScriptedEndpoint({
      model: "leak-model",
      script: cases.map((c) => ({
        response: {
          marker: MARKER,
          choices: [
            { message: { role: "assistant", content: textOf(c.value) } },
          ],
          reply: c.value,
        },
      })),
    }),
    signals: branch,
  });
  const executor = new Executor(tools, {
    model: new IModelClient(model),
    signals: branch,
  });
  const exported = exportToOpenTelemetry(session, {
    tracer: provider.getTracer("leaks"),
    captureContent: true,
  });
  const ctx = executor.context({ runId: "leaks" });
  for (const planted of cases) {
    await branch.act({
      function: "echo",
      arguments: { marker: MARKER, planted: planted.value },
    });
    await executor.callTool(
      { name: "echo", arguments: { marker: MARKER, planted: planted.value } },
      ctx,
    );
    await executor
      .callTool(
        { name: "fail", arguments: { marker: MARKER, planted: planted.value } },
        ctx,
      )
      .catch(() => undefined);
    await executor.callLlm(
      {
        messages: [
          { role: "user", content: `${MARKER} ${textOf(planted.value)}` },
        ],
      },
      ctx,
    );
  }
  await exported.end();
  return JSON.stringify(
    spans().map((span) => ({
      name: span.name,
      attributes: span.attributes,
      events: span.events,
      status: span.status,
    })),
  );
}

/** A planted value as text when it is text (the forms a message or an error can carry), else "". */
function textOf(value: unknown): string {
  return typeof value === "string" ? value : "";
}
