import { InvalidValueError } from "../../shared/errors.js";
import { EventStatus } from "../../service/eventStatus.js";
import type { IModel } from "../../service/iModel.js";
import type { LLMRequest, LLMResponse } from "../llm.js";
import type { ModelClient } from "./backends.js";
import { optionsObject, requireObject } from "../../shared/arguments.js";

/**
 * An `IModel` as the executor's model. Each call is one `imodel.invoke()`, so the model's own
 * service hooks (pre-event-create, pre- and post-invocation) run inside the middleware's call
 * step. A FAILED or CANCELLED call throws the error it recorded, so on-error hooks see it.
 */
export class IModelClient implements ModelClient {
  readonly imodel: IModel;
  readonly provider: string;
  readonly model: string;

  constructor(imodel: IModel, options: { provider?: string; model?: string } = {}) {
    const where = "new IModelClient(imodel, options)";
    requireObject(requireObject(imodel, where, "imodel (an IModel)").endpoint, where, "imodel.endpoint (an IModel's endpoint)");
    optionsObject(options, where);
    this.imodel = imodel;
    this.provider = options.provider ?? imodel.endpoint.name;
    const endpointModel = (imodel.endpoint as { model?: unknown }).model;
    this.model = options.model ?? (typeof endpointModel === "string" ? endpointModel : "default");
  }

  async complete(request: LLMRequest, signal?: AbortSignal, call?: { readonly callId: string }): Promise<LLMResponse> {
    const apiCall = await this.imodel.invoke({
      ...(call && { parentCallId: call.callId }),
      model: this.model,
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
      ...(request.maxTokens !== undefined && { max_tokens: request.maxTokens }),
      ...(request.temperature !== undefined && { temperature: request.temperature }),
      ...(signal && { signal }),
    });
    if (apiCall.status !== EventStatus.COMPLETED) {
      const error: unknown = apiCall.execution.error;
      throw error ?? new InvalidValueError(`model call ended ${apiCall.status} without an error`);
    }
    const usage = apiCall.usage;
    return {
      ...readChatCompletion(apiCall.response),
      usage: usage === null ? null : { inputTokens: usage.promptTokens, outputTokens: usage.completionTokens },
    };
  }
}

/** Content and finish reason of an OpenAI-style chat completion (a plain string is taken as the content). */
function readChatCompletion(response: unknown): { content: string; finishReason: string | null } {
  if (typeof response === "string") return { content: response, finishReason: null };
  const choice = (response as { choices?: { message?: { content?: unknown }; finish_reason?: unknown }[] } | null)?.choices?.[0];
  const content = choice?.message?.content;
  const reason = choice?.finish_reason;
  return { content: typeof content === "string" ? content : "", finishReason: typeof reason === "string" ? reason : null };
}
