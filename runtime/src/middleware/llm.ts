/** One chat message sent to a model. */
export interface LLMMessage {
  readonly role: "system" | "user" | "assistant" | "tool";
  readonly content: string;
}

/** What the executor sends to a model. `stage` labels the purpose of the call in logs. */
export interface LLMRequest {
  readonly messages: readonly LLMMessage[];
  readonly stage?: string;
  readonly maxTokens?: number;
  readonly temperature?: number;
}

export interface LLMUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** What a model answered. `usage` is null when the provider reported none. */
export interface LLMResponse {
  readonly content: string;
  readonly finishReason: string | null;
  readonly usage: LLMUsage | null;
}
