import type { SignalFrame } from "@hooklens/runtime/live";
import type { CallKind, SignalFacts, SourceLocation } from "./signalFacts.js";

/** One signal as the view holds it: the frame, what was read from it, and where it went. */
export interface SignalEntry {
  /** Unique within its session and stable for its lifetime (tree ids and documents use it). */
  readonly seq: number;
  readonly frame: SignalFrame;
  readonly facts: SignalFacts;
  group: CallGroup | null;
}

/**
 * The signals of one tool or model call (same call id): tool.pre → tool.post/tool.error or a
 * denial, the call's start/finish records, stream chunk batches; calls made inside it nest.
 * Error and denial counts include nested calls, so every parent can show them.
 */
export class CallGroup {
  readonly members: SignalEntry[] = [];
  readonly children: CallGroup[] = [];
  parent: CallGroup | null = null;
  /** The branch its own signals name, if any. */
  branchId: string | null = null;
  /** The branch the grouped view shows it in: its own, else the one inferred from the rows before it. */
  shownBranchId: string | null = null;
  /** Set once the session's grouped view holds it as a row (its counts are then kept up there as signals come). */
  placed = false;
  /** Signals in this call and the calls nested in it that failed, or that record a denial. */
  errors = 0;
  denials = 0;
  /** Set once the act() record of this call was attached (at most one per call). */
  hasRecord = false;
  /** Set once an action request message joined this call. */
  hasActionRequest = false;
  /**
   * Where the program defined the call's tool (what its ToolCallStarted names), else the first
   * place one of its signals names. Kept when those signals are evicted: it stays true of the call.
   */
  source: SourceLocation | null = null;
  /** Members an eviction in progress is taking away (see `SessionModel.dropOldest`); 0 otherwise. */
  leaving = 0;

  constructor(
    readonly kind: CallKind,
    readonly callId: string,
  ) {}

  get key(): string {
    return `${this.kind}:${this.callId}`;
  }

  get first(): SignalEntry {
    return this.members[0]!;
  }

  get last(): SignalEntry {
    return this.members[this.members.length - 1]!;
  }

  /** The call's name: its tool, or `model <name>` for a model call. */
  get name(): string {
    if (this.kind === "tool") return this.#firstFact("toolName") ?? "tool";
    const model = this.#firstFact("model");
    return model ? `model ${model}` : "model call";
  }

  /** The duration the call reported (finish record, tool.post), else the time its signals span. */
  get durationMs(): number | null {
    let reported: number | null = null;
    for (const { facts } of this.members) {
      if (facts.durationMs !== null && facts.kindKey !== "ModelStreamChunks") reported = Math.max(reported ?? 0, facts.durationMs);
    }
    if (reported !== null) return reported;
    if (this.members.length < 2) return null;
    return (this.last.frame.createdAt - this.first.frame.createdAt) * 1000;
  }

  add(entry: SignalEntry): void {
    this.members.push(entry);
    entry.group = this;
    if (this.branchId === null && entry.facts.branchId !== null) this.branchId = entry.facts.branchId;
    if (entry.facts.source && (this.source === null || entry.facts.kindKey === "ToolCallStarted")) this.source = entry.facts.source;
    const problem = entry.facts.problem;
    for (let group: CallGroup | null = this; group; group = group.parent) {
      if (problem === "error") group.errors++;
      else if (problem === "denied") group.denials++;
    }
  }

  /** The outermost call this one runs inside (itself when it is not nested). */
  get root(): CallGroup {
    let group: CallGroup = this;
    while (group.parent) group = group.parent;
    return group;
  }

  #firstFact(key: "toolName" | "model"): string | null {
    for (const { facts } of this.members) if (facts[key]) return facts[key];
    return null;
  }
}
