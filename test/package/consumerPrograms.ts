/**
 * The small programs a fresh project runs against the packed @hooklens/runtime: each goes through
 * every scope (a session bus handler, a model with service hooks, a tool, a middleware hook
 * around both) and prints one line naming what ran, which the test compares.
 */
export const EXPECTED_OUTPUT = "session:tool.pre add | service:pre,post | tool:5 | middleware:tool,llm | model:Hello";

/** The program in TypeScript; the same text is compiled as .mts (nodenext), .cts (node16) and .ts (bundler). */
const TYPESCRIPT = `import * as rt from "@hooklens/runtime";
import { z } from "zod";

class Tally extends rt.Hook {
  readonly seen: string[] = [];
  beforeTool(): void {
    this.seen.push("tool");
  }
  beforeLlm(): void {
    this.seen.push("llm");
  }
}

async function main(): Promise<void> {
  const ran: string[] = [];
  const session = new rt.Session();
  session.hooks.on(rt.HookPoint.TOOL_PRE, (payload) => void ran.push(\`session:\${rt.HookPoint.TOOL_PRE} \${payload.toolName}\`));
  const tools = new rt.BranchTools(session.newBranch());
  tools.register(
    new rt.Tool({
      name: "add",
      description: "Adds two numbers.",
      requestOptions: z.object({ a: z.number(), b: z.number() }),
      funcCallable: ({ a, b }: { a: number; b: number }) => a + b,
    }),
  );
  const service: string[] = [];
  const registry = new rt.HookRegistry();
  registry.preInvoke(() => void service.push("pre"));
  registry.postInvoke(() => void service.push("post"));
  const model = new rt.IModel({ endpoint: new rt.ScriptedEndpoint({ script: ["Hello"] }), hookRegistry: registry });
  const tally = new Tally();
  const executor = new rt.Executor(tools, { hooks: [tally], model: new rt.IModelClient(model) });
  const ctx = executor.context({ runId: "consumer" });
  const result = await executor.callTool({ name: "add", arguments: { a: 2, b: 3 } }, ctx);
  const reply = await executor.callLlm({ messages: [{ role: "user", content: "Hi" }] }, ctx);
  ran.push(\`service:\${service.join(",")}\`, \`tool:\${String(result.status === "ok" ? result.value : result.status)}\`);
  ran.push(\`middleware:\${tally.seen.join(",")}\`, \`model:\${reply.content}\`);
  console.log(ran.join(" | "));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;

/** The same program in plain JavaScript (types stripped), under an import header of each module system. */
const JAVASCRIPT_BODY = TYPESCRIPT.replace(/^import .*\n/gm, "")
  .replace("  readonly seen: string[] = [];", "  seen = [];")
  .replace(/\): void \{/g, ") {")
  .replace("async function main(): Promise<void> {", "async function main() {")
  .replace("const ran: string[] = [];", "const ran = [];")
  .replace("const service: string[] = [];", "const service = [];")
  .replace("({ a, b }: { a: number; b: number })", "({ a, b })")
  .replace("(error: unknown)", "(error)");

export const CONSUMERS = {
  "esm.mjs": `import * as rt from "@hooklens/runtime";\nimport { z } from "zod";\n${JAVASCRIPT_BODY}`,
  "cjs.cjs": `const rt = require("@hooklens/runtime");\nconst { z } = require("zod");\n${JAVASCRIPT_BODY}`,
  typescript: TYPESCRIPT,
} as const;

/**
 * The OpenTelemetry export from the packed `@hooklens/runtime/otel`, into the real SDK's in-memory
 * exporter: a session's tool call, and a bare IModel's call. Prints the finished spans, parents first.
 */
export const OTEL_EXPECTED_OUTPUT = "session>execute_tool add | session>chat scripted-model";

const OTEL_BODY = `async function main() {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
  const tracer = provider.getTracer("consumer");
  const session = new rt.Session();
  const branch = session.newBranch();
  branch.registerTools(new rt.Tool({ name: "add", funcCallable: ({ a, b }) => a + b }));
  const sessionExport = exportToOpenTelemetry(session, { tracer });
  await branch.act({ function: "add", arguments: { a: 2, b: 3 } });
  await sessionExport.end();
  const model = new rt.IModel({ endpoint: new rt.ScriptedEndpoint({ script: ["Hello"] }) });
  const modelExport = exportToOpenTelemetry(model, { tracer });
  await model.invoke({ messages: [{ role: "user", content: "Hi" }] });
  await modelExport.end();
  const spans = memory.getFinishedSpans();
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const lines = spans.filter((s) => s.parentSpanContext).map((s) => \`\${byId.get(s.parentSpanContext.spanId)?.name}>\${s.name}\`);
  console.log(lines.join(" | "));
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
`;

/**
 * \`HOOKLENS_OTEL=1\` with an SDK the program registered itself and no exporter code: the session's,
 * a bare IModel's and a bare Executor's calls reach the global provider (a trace each); printed
 * when the program exits.
 */
// One trace: an IModel or Executor given no recorder records into the Session made last in the
// process (decision 0041), so the bare model call and the Executor's call join the session's trace.
export const OTEL_ENV_EXPECTED_OUTPUT = "chat scripted-model,execute_tool add,execute_tool add,session";

const OTEL_ENV_BODY = `const memory = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
trace.setGlobalTracerProvider(provider);
process.on("exit", () => console.log(memory.getFinishedSpans().map((s) => s.name).sort().join(",")));

async function main() {
  const session = new rt.Session();
  const branch = session.newBranch();
  branch.registerTools(new rt.Tool({ name: "add", funcCallable: ({ a, b }) => a + b }));
  await branch.act({ function: "add", arguments: { a: 2, b: 3 } });
  const model = new rt.IModel({ endpoint: new rt.ScriptedEndpoint({ script: ["Hello"] }) });
  await model.invoke({ messages: [{ role: "user", content: "Hi" }] });
  const tools = new rt.BranchTools(new rt.Branch()).register(new rt.Tool({ name: "add", funcCallable: ({ a, b }) => a + b }));
  const executor = new rt.Executor(tools);
  await executor.callTool({ name: "add", arguments: { a: 1, b: 1 } }, executor.context());
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
`;

const SDK_IMPORTS_ESM = `import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";\n`;
const SDK_IMPORTS_CJS = `const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require("@opentelemetry/sdk-trace-base");\n`;

export const OTEL_CONSUMERS = {
  "otel.mjs": `import * as rt from "@hooklens/runtime";\nimport { exportToOpenTelemetry } from "@hooklens/runtime/otel";\n${SDK_IMPORTS_ESM}${OTEL_BODY}`,
  "otel.cjs": `const rt = require("@hooklens/runtime");\nconst { exportToOpenTelemetry } = require("@hooklens/runtime/otel");\n${SDK_IMPORTS_CJS}${OTEL_BODY}`,
  "otel-env.mjs": `import * as rt from "@hooklens/runtime";\nimport { trace } from "@opentelemetry/api";\n${SDK_IMPORTS_ESM}${OTEL_ENV_BODY}`,
  "otel-env.cjs": `const rt = require("@hooklens/runtime");\nconst { trace } = require("@opentelemetry/api");\n${SDK_IMPORTS_CJS}${OTEL_ENV_BODY}`,
  /** The main entry alone never loads the OpenTelemetry API. */
  "no-otel.cjs": `const rt = require("@hooklens/runtime");
(async () => {
  const session = new rt.Session();
  const branch = session.newBranch();
  branch.registerTools(new rt.Tool({ name: "add", funcCallable: ({ a, b }) => a + b }));
  await branch.act({ function: "add", arguments: { a: 2, b: 3 } });
  await session.observer.flush();
  console.log(Object.keys(require.cache).filter((file) => file.includes("@opentelemetry")).length);
})();
`,
  /** Type-checked against the shipped declarations (nodenext and node16 CJS). */
  typescript: `import { Session } from "@hooklens/runtime";
import { exportToOpenTelemetry, type OpenTelemetryExport } from "@hooklens/runtime/otel";
import { trace } from "@opentelemetry/api";

const exported: OpenTelemetryExport = exportToOpenTelemetry(new Session(), { tracer: trace.getTracer("consumer"), captureContent: false });
void exported.end().then(() => console.log(exported.sink.constructor.name));
`,
} as const;
