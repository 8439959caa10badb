// How the Ledger prices a model call: the price entry's shape, and the keys it is found under.
import assert from "node:assert/strict";
import { BranchTools, Executor, IModel, IModelClient, InvalidValueError, Ledger, ScriptedEndpoint, Session } from "@hooklens/runtime";

// A price entry is USD per million input (prompt) tokens and per million output (completion)
// tokens. Keys are "provider/model", or the model name alone as the fallback for any provider.
const ledger = new Ledger({
  prices: {
    "scripted/support-model": { inputPerMillion: 3, outputPerMillion: 15 },
    "support-model": { inputPerMillion: 100, outputPerMillion: 100 },
  },
});

// "provider/model" is looked up first…
const exact = ledger.record({ runId: "r1", provider: "scripted", model: "support-model", inputTokens: 1_000, outputTokens: 200 });
assert.equal(exact.costUsd, (1_000 * 3 + 200 * 15) / 1_000_000);
// …then the model alone, whatever the provider…
const byModel = ledger.record({ runId: "r1", provider: "openai", model: "support-model", inputTokens: 1_000, outputTokens: 0 });
assert.equal(byModel.costUsd, 0.1);
// …and a model with no entry has no known cost (null, never $0): budgets then fail closed.
const unknown = ledger.record({ runId: "r1", provider: "openai", model: "other-model", inputTokens: 10, outputTokens: 10 });
assert.equal(unknown.costUsd, null);
assert.equal(ledger.unpricedCount("r1"), 1);

// Through an executor, IModelClient names the call: the provider is the endpoint's `name` and the
// model its `model` (ScriptedEndpoint's defaults are "scripted" and "scripted-model").
const endpoint = new ScriptedEndpoint({ name: "scripted", model: "support-model", script: ["Refunds take three days."] });
const executor = new Executor(new BranchTools(new Session().newBranch()), { ledger, model: new IModelClient(new IModel({ endpoint })) });
await executor.callLlm({ messages: [{ role: "user", content: "How long do refunds take?" }] }, executor.context({ runId: "r2" }));
const [billed] = ledger.entries("r2");
assert.equal(`${billed!.provider}/${billed!.model}`, "scripted/support-model");
// The scripted endpoint counts words as tokens: 5 in, 4 out, at the "scripted/support-model" price.
assert.equal(billed!.costUsd, (5 * 3 + 4 * 15) / 1_000_000);

// A price entry of another shape is refused when the ledger is made, not ignored at billing time.
assert.throws(() => new Ledger({ prices: { "gpt-4o": { input: 2.5, output: 10 } as never } }), InvalidValueError);
console.log(`r1: $${ledger.totalUsd("r1").toFixed(4)} with ${ledger.unpricedCount("r1")} unpriced call; r2: $${ledger.totalUsd("r2").toFixed(6)}`);
