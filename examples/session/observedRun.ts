// observedRun(): RunStart, then RunEnd with usage, or RunFailed.
import assert from "node:assert/strict";
import { RunEnd, RunFailed, Session } from "@hooklens/runtime";

const session = new Session();
const branch = session.defaultBranch!;

const answer = await branch.observedRun(async () => {
  await branch.addMessageAsync({
    role: "assistant",
    content: "42",
    metadata: { modelResponse: { usage: { prompt_tokens: 12, completion_tokens: 3 } } },
  });
  return "42";
});

const [end] = session.observer.byType(RunEnd);
console.log(answer, end!.inputTokens, end!.outputTokens, end!.numTurns); // 42 12 3 1

await assert.rejects(branch.observedRun(() => Promise.reject(new Error("model timed out"))));
assert.equal(session.observer.byType(RunFailed).length, 1);
console.log(session.observer.flow.items.map((s) => s.constructor.name).join(" → "));
