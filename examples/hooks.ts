/**
 * Middleware hooks around an agent's tool and model calls: a custom hook that answers a known
 * query without running the tool, the four built-ins (structured logging with redaction, a spend
 * cap per conversation, a secrets guardrail, rate limits) and one run of the executor.
 *
 * Run it: npx tsx examples/hooks.ts   (the runtime's log lines go to pino on stdout)
 */
import pino from "pino";
import { z } from "zod";
import {
  BranchTools,
  BudgetExceeded,
  BudgetHook,
  Executor,
  GuardrailBlocked,
  GuardrailHook,
  Hook,
  IModel,
  IModelClient,
  Ledger,
  LoggingHook,
  Rate,
  RateLimitHook,
  ScriptedEndpoint,
  Session,
  ShortCircuit,
  Tool,
  ToolInvocation,
  redact,
  runBefore,
  setLogger,
  type GuardrailStage,
  type Logger,
  type RunContext,
} from "@hooklens/runtime";

/** Answers known queries without running the tool. */
export class CachedAnswers extends Hook {
  override name = "cached_answers";

  async beforeTool(inv: ToolInvocation): Promise<ShortCircuit | null> {
    if (inv.call.arguments["query"] === "returns") return new ShortCircuit(["returns: free within 30 days"]);
    return null;
  }
}

/** The guardrail check: true passes, a string blocks with that reason. */
export function noSecrets(_stage: GuardrailStage, payload: unknown): boolean | string {
  return !JSON.stringify(payload).includes("password") || "looks like a password";
}

export const hooks = [
  new LoggingHook(), // one JSON line per start / finish / error, secrets redacted
  new BudgetHook(0.5, { scope: "thread" }), // stop once the conversation spent $0.50
  new GuardrailHook(noSecrets, { on: ["args", "result"] }),
  new RateLimitHook({ search: new Rate(5, 1.0), llm: new Rate(60, 60.0) }),
];

/** A ToolInvocation of the search tool, for calling the dispatchers directly. */
export function invocation(tools: BranchTools, ctx: RunContext, args: Record<string, unknown>): ToolInvocation {
  return new ToolInvocation(tools.spec("search")!, { id: "manual-1", name: "search", arguments: args }, ctx);
}

export interface ExampleOutcome {
  redacted: unknown;
  answers: unknown[];
  blocked: string;
  reply: string;
  budget: { scope: string; limitUsd: number; spentUsd: number };
  events: string[];
}

export async function main(options: { print?: (line: string) => void; logger?: Logger } = {}): Promise<ExampleOutcome> {
  const print = options.print ?? console.log;
  const previousLogger = setLogger(options.logger ?? pino({ level: "info" }));
  try {
    const redacted = redact({ query: "returns", api_key: "sk-1", headers: { Authorization: "Bearer x" } });
    print(`redact → ${JSON.stringify(redacted)}`);

    // The tools live on a Branch; the executor runs them through the Tool scope's act().
    const branch = new Session().newBranch();
    const tools = new BranchTools(branch).register(
      new Tool({
        name: "search",
        description: "Search the help centre.",
        requestOptions: z.object({ query: z.string() }),
        funcCallable: ({ query }: { query: string }) => [`${query}: see the help centre`],
      }),
      { kind: "search" },
    );

    // An offline model that reports 1,000 input and 500 output tokens per answer: $0.60 at these prices.
    const endpoint = new ScriptedEndpoint({
      script: [
        {
          response: {
            choices: [{ index: 0, message: { role: "assistant", content: "Returns are free within 30 days." }, finish_reason: "stop" }],
            usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 },
          },
        },
      ],
    });
    const ledger = new Ledger({ prices: { "scripted-model": { inputPerMillion: 300, outputPerMillion: 600 } } });
    const events: string[] = [];
    const executor = new Executor(tools, {
      hooks: [...hooks, new CachedAnswers()], // the executor calls them in this order
      ledger,
      model: new IModelClient(new IModel({ endpoint })),
      onEvent: (event) => void events.push(event),
    });
    const ctx = executor.context({ runId: "run-1", threadId: "t1" });

    const answers: unknown[] = [];
    for (const query of ["returns", "shipping"]) {
      const result = await executor.callTool({ name: "search", arguments: { query } }, ctx);
      answers.push(result.value);
      print(`search(${query}) → ${JSON.stringify(result.value)}${result.attempts === 0 ? " (short-circuited)" : ""}`);
    }

    let blocked = "";
    try {
      await executor.callTool({ name: "search", arguments: { query: "reset my password hunter2" } }, ctx);
    } catch (error) {
      if (!(error instanceof GuardrailBlocked)) throw error;
      blocked = `${error.stage}: ${error.reason}`;
      print(`guardrail blocked the ${blocked}`);
    }

    const response = await executor.callLlm({ messages: [{ role: "user", content: "What is the returns policy?" }], stage: "answer" }, ctx);
    print(`model → ${response.content} (thread t1 has now spent $${ledger.totalUsd(null, { threadId: "t1" }).toFixed(2)})`);

    // The same hooks, called directly through a dispatcher.
    let budget = { scope: "", limitUsd: 0, spentUsd: 0 };
    try {
      await runBefore(hooks, "beforeTool", invocation(tools, ctx, { query: "returns" }));
    } catch (error) {
      if (!(error instanceof BudgetExceeded)) throw error;
      budget = { scope: error.scope, limitUsd: error.limitUsd, spentUsd: Math.round(error.spentUsd * 100) / 100 };
      print(`${budget.scope} ${budget.limitUsd} ${budget.spentUsd}`); // thread t1 already spent 0.6
    }
    return { redacted, answers, blocked, reply: response.content, budget, events };
  } finally {
    setLogger(previousLogger);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
