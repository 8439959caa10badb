import { idOf, objectOf, textOf, type Fields } from "./signalFields.js";

/** An agent as the trace names it: `gen_ai.agent.name`, and `gen_ai.agent.id` when the program gave one. */
export interface Agent {
  readonly name: string;
  readonly id: string | null;
}

/**
 * Which agent a branch's observed run invokes, from what the session's signals say, most specific
 * first: the `agentName` (and `agentId`) a program's `branch.create` gave that branch; the
 * branch's own name, which its RunStart carries (`createAgent` names a branch after its
 * AgentSpec); the `agentName` (and `agentId`) of the session's `session.start`. The names are
 * exported text, redacted like every other.
 */
export class AgentNames {
  /** Declared per branch id by `branch.create`; one entry per branch of the session. */
  readonly #branches = new Map<string, Agent>();
  #session: Agent | null = null;

  /** Reads a `session.start` or `branch.create` payload; true when it declared an agent. */
  declare(point: "session.start" | "branch.create", payload: Fields | null): boolean {
    const agent = agentOf(payload);
    if (agent === null) return false;
    if (point === "session.start") {
      this.#session = agent;
      return true;
    }
    const branchId = idOf(payload?.["branchId"]);
    if (branchId === null) return false;
    this.#branches.set(branchId, agent);
    return true;
  }

  /** The agent of a run on `branchId`, whose RunStart's metadata is `metadata`; null when nothing names one. */
  of(branchId: string | null, metadata: unknown): Agent | null {
    const declared = branchId === null ? undefined : this.#branches.get(branchId);
    if (declared !== undefined) return declared;
    const branchName = textOf(objectOf(metadata), "branchName");
    return branchName === null ? this.#session : { name: branchName, id: null };
  }
}

function agentOf(payload: Fields | null): Agent | null {
  const name = textOf(payload, "agentName");
  return name === null ? null : { name, id: textOf(payload, "agentId") };
}
