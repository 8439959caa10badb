import { describeValue, requireObject } from "../shared/arguments.js";
import { InvalidValueError } from "../shared/errors.js";
import { newId } from "../shared/ids.js";

/** Who a message is from, as the Branch's message model names it. */
export type MessageRole = "system" | "user" | "assistant" | "action_request" | "action_response";
const MESSAGE_ROLES: readonly string[] = ["system", "user", "assistant", "action_request", "action_response"] satisfies MessageRole[];

export interface MessageInit<C = unknown> {
  role: MessageRole;
  content: C;
  sender?: string | null;
  recipient?: string | null;
  /** Free-form; `modelResponse` (the provider's response with its `usage`) feeds a run's RunEnd usage. */
  metadata?: Record<string, unknown>;
  id?: string;
  createdAt?: number;
}

/** One message of a Branch's conversation. */
export class Message<C = unknown> {
  readonly id: string;
  readonly role: MessageRole;
  sender: string | null;
  recipient: string | null;
  content: C;
  readonly createdAt: number;
  metadata: Record<string, unknown>;

  constructor(init: MessageInit<C>) {
    requireObject(init, "new Message(init)", "init ({ role, content })");
    if (!MESSAGE_ROLES.includes(init.role)) {
      throw new InvalidValueError(`new Message(init): init.role must be one of ${MESSAGE_ROLES.join(", ")}, got ${describeValue(init.role)}`);
    }
    this.id = init.id ?? newId();
    this.role = init.role;
    this.sender = init.sender ?? null;
    this.recipient = init.recipient ?? null;
    this.content = init.content;
    this.createdAt = init.createdAt ?? Date.now() / 1000;
    this.metadata = init.metadata ?? {};
  }
}
