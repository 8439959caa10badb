// A model for the real `@openai/agents` Runner that answers from a script, through the SDK's own
// Model and ModelProvider interfaces: no network, the same run loop, tools, guardrails,
// handoffs, approvals and tracing as with a hosted model.
import { Usage, type Model, type ModelProvider, type ModelRequest, type ModelResponse } from "@openai/agents";

/** One scripted answer: text, a function call, or an error the model call throws. */
export type Turn = { text: string } | { call: string; args: Record<string, unknown> } | { fail: string };

export class ScriptedModel implements Model {
  readonly #turns: Turn[];
  /** The requests the run made, in order. */
  readonly requests: ModelRequest[] = [];
  #calls = 0;

  constructor(turns: readonly Turn[]) {
    this.#turns = [...turns];
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const turn = this.#turns.shift();
    if (turn === undefined) throw new Error("the script has no more turns");
    if ("fail" in turn) throw new Error(turn.fail);
    const usage = new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    if ("text" in turn) {
      return { usage, output: [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: turn.text }] }] };
    }
    const callId = `call_${++this.#calls}_${turn.call}`;
    return { usage, output: [{ type: "function_call", callId, name: turn.call, arguments: JSON.stringify(turn.args), status: "completed" }] };
  }

  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error("not scripted");
  }
}

/** A provider that hands out one scripted model whatever name is asked for (agents given a model instance do not ask). */
export function scriptedProvider(model: Model): ModelProvider {
  return { getModel: () => model };
}
