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
