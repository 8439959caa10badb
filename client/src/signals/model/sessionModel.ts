import type { SignalFrame } from "@hooklens/runtime/live";
import { BranchedRows, type GroupedView, type SessionItem } from "./branchedRows.js";
import { CallGroup, type SignalEntry } from "./callGroup.js";
import { stringField } from "./payloadFields.js";
import { isModelPoint, readSignal, type BranchName, type CallKind } from "./signalFacts.js";

/** How many act() record candidates are remembered per tool name. */
const RECORD_CANDIDATES = 64;

/**
 * One session's signals, grouped as they arrive: each signal is read once, joined to its call
 * (by call id) or kept as a row of its own; counts are updated in place, so adding a signal costs
 * the same whether the session holds ten signals or a hundred thousand. Views derived from it
 * (branches, filters, pages) are rebuilt lazily, at most once per {@link version}.
 */
export class SessionModel {
  readonly entries: SignalEntry[] = [];
  readonly items: SessionItem[] = [];
  /** Top-level rows (calls or loose signals) that hold an error / a denial. */
  errorRows = 0;
  deniedRows = 0;
  /** Signals reported lost, summed over the session's drop markers. */
  droppedSignals = 0;
  /** Tool and model calls (call groups, nested ones included). */
  toolCalls = 0;
  modelCalls = 0;
  /** When the session's first signal was created (POSIX seconds); offsets are measured from it. */
  startedAt: number | null = null;
  /** Bumped on every change; caches of derived views compare against it. */
  version = 0;
  readonly #groups = new Map<string, CallGroup>();
  /** Tool calls without their act() record yet, per tool name (newest last). */
  readonly #awaitingRecord = new Map<string, CallGroup[]>();
  /** The call a Tool instance last ran, so its action messages join it. */
  readonly #callOfToolInstance = new Map<string, CallGroup>();
  #latestToolCall: CallGroup | null = null;
  /** act() calls started (ToolCallStarted) and not finished yet: where a denial naming no call may belong. */
  readonly #openActCalls = new Set<CallGroup>();
  /** Model calls reported without a call id and still waiting for their api.post_call, per branch, oldest first. */
  readonly #openModelCalls = new Map<string | null, CallGroup[]>();
  #nextSeq = 1;
  /** Branch names by branch id, and whether a `branch.create` declared it (see {@link #nameBranch}). */
  readonly #branchNames = new Map<string, { name: string; declared: boolean }>();
  /** The grouped view (see {@link grouped}). */
  readonly #rows = new BranchedRows((branchId) => this.#branchNames.get(branchId)?.name ?? null);

  constructor(readonly sessionId: string) {}

  get size(): number {
    return this.entries.length;
  }

  add(frame: SignalFrame): SignalEntry {
    return this.#add(frame, this.#nextSeq++);
  }

  /**
   * Drops the oldest `count` signals. Only what they touched changes: they leave their calls
   * (a call left without signals goes, a call nested in it takes its place), the counts on each
   * row follow, and the rest keep their grouping, sequence numbers and what was read from them.
   * Costs the dropped signals plus one pass over the top-level rows, not a regrouping of the rest.
   */
  dropOldest(count: number): void {
    const dropped = this.entries.splice(0, Math.max(0, Math.min(count, this.entries.length)));
    if (dropped.length === 0) return;
    this.version++;
    const lastDroppedSeq = dropped[dropped.length - 1]!.seq;
    const touched: CallGroup[] = [];
    /** Each touched top-level call, with whether it counted as a row with an error / a denial before, and the signals it lost. */
    const roots = new Map<CallGroup, [boolean, boolean, number]>();
    /** The rows the grouped view had placed that go (loose signals, emptied top-level calls). */
    const gone = new Set<SessionItem>();
    let looseDropped = 0;
    for (const entry of dropped) {
      const { facts, group } = entry;
      if (facts.droppedCount !== null) this.droppedSignals -= facts.droppedCount;
      if (!group) {
        looseDropped++;
        if (facts.problem === "error") this.errorRows--;
        else if (facts.problem === "denied") this.deniedRows--;
        continue;
      }
      const root = group.root;
      let before = roots.get(root);
      if (!before) roots.set(root, (before = [root.errors > 0, root.denials > 0, 0]));
      before[2]++;
      if (group.leaving++ === 0) touched.push(group);
      if (facts.problem === null) continue;
      for (let at: CallGroup | null = group; at; at = at.parent) {
        if (facts.problem === "error") at.errors--;
        else at.denials--;
      }
    }
    // A group's dropped signals are the oldest of its members: a prefix.
    const emptied = new Set<CallGroup>();
    let emptiedRows = 0;
    for (const group of touched) {
      group.members.splice(0, group.leaving);
      group.leaving = 0;
      if (group.members.length > 0) continue;
      emptied.add(group);
      if (group.parent === null) emptiedRows++;
      this.#groups.delete(group.key);
      if (group.kind === "tool") this.toolCalls--;
      else this.modelCalls--;
    }
    for (const group of emptied) {
      const parent = group.parent;
      if (parent && !emptied.has(parent)) replaceAll(parent.children, parent.children.flatMap((child) => survivors(child, parent, emptied)));
    }
    // The rows that go were made by the dropped signals, so they sit near the front: scan only
    // until all of them are found; an emptied call gives way to the calls nested in it.
    const head: SessionItem[] = [];
    let toRemove = looseDropped + emptiedRows;
    let scanned = 0;
    /** Whether calls nested in an emptied one became rows. */
    let lifted = false;
    for (; scanned < this.items.length && toRemove > 0; scanned++) {
      const item = this.items[scanned]!;
      if (!(item instanceof CallGroup)) {
        if (item.seq > lastDroppedSeq) head.push(item);
        else {
          toRemove--;
          if (scanned < this.#rows.placed) gone.add(item);
        }
      } else if (!emptied.has(item)) head.push(item);
      else {
        toRemove--;
        if (scanned < this.#rows.placed) gone.add(item);
        for (const group of survivors(item, null, emptied)) {
          head.push(group);
          lifted = true;
        }
      }
    }
    if (head.length <= 1_000) this.items.splice(0, scanned, ...head);
    else replaceAll(this.items, head.concat(this.items.slice(scanned)));
    for (const [root, [hadError, hadDenial]] of roots) {
      if (hadError) this.errorRows--;
      if (hadDenial) this.deniedRows--;
      for (const row of emptied.has(root) ? survivors(root, null, emptied) : [root]) {
        if (row.errors > 0) this.errorRows++;
        if (row.denials > 0) this.deniedRows++;
      }
    }
    if (emptied.size > 0) this.#forgetGroups(emptied);
    this.#rows.lost(gone, emptied, roots, lifted);
  }

  /** Removed groups leave the look-ups that join later signals to their call. */
  #forgetGroups(gone: ReadonlySet<CallGroup>): void {
    for (const [toolName, waiting] of this.#awaitingRecord) {
      const kept = waiting.filter((group) => !gone.has(group));
      if (kept.length > 0) this.#awaitingRecord.set(toolName, kept);
      else this.#awaitingRecord.delete(toolName);
    }
    for (const [instance, group] of this.#callOfToolInstance) if (gone.has(group)) this.#callOfToolInstance.delete(instance);
    for (const [lane, open] of this.#openModelCalls) this.#openModelCalls.set(lane, open.filter((group) => !gone.has(group)));
    if (this.#latestToolCall && gone.has(this.#latestToolCall)) this.#latestToolCall = null;
    for (const group of gone) this.#openActCalls.delete(group);
  }

  group(kind: string, callId: string): CallGroup | undefined {
    return this.#groups.get(`${kind}:${callId}`);
  }

  /** The rows with branches folded in, kept up to date rather than rebuilt (see {@link BranchedRows}). */
  grouped(): GroupedView {
    return this.#rows.read(this.items);
  }

  /** The grouped view built from scratch: what {@link grouped} keeps up to date (tests compare the two). */
  regroup(): GroupedView {
    this.#rows.invalidate();
    return this.grouped();
  }

  #add(frame: SignalFrame, seq: number, facts = readSignal(frame)): SignalEntry {
    const entry: SignalEntry = { seq, frame, facts, group: null };
    this.startedAt ??= frame.createdAt;
    this.entries.push(entry);
    this.version++;
    if (entry.facts.droppedCount !== null) this.droppedSignals += entry.facts.droppedCount;
    if (entry.facts.branchName) this.#nameBranch(entry.facts.branchName);
    const group = this.#groupFor(entry);
    if (!group) {
      this.items.push(entry);
      if (entry.facts.problem === "error") this.errorRows++;
      if (entry.facts.problem === "denied") this.deniedRows++;
      return entry;
    }
    const root = group.root;
    const hadError = root.errors > 0;
    const hadDenial = root.denials > 0;
    group.add(entry);
    if (!hadError && root.errors > 0) this.errorRows++;
    if (!hadDenial && root.denials > 0) this.deniedRows++;
    this.#rows.rowGrew(root, hadError, hadDenial);
    return entry;
  }

  /**
   * The name a branch is shown with: a `branch.create` hook's agent name wins over a run's branch
   * name (as the OpenTelemetry export names its invoke_agent span); otherwise the first one seen.
   */
  #nameBranch({ branchId, name, declared }: BranchName): void {
    const known = this.#branchNames.get(branchId);
    if (known && (known.declared || !declared)) return;
    this.#branchNames.set(branchId, { name, declared });
    this.#rows.renamed(branchId, name);
  }

  #groupFor(entry: SignalEntry): CallGroup | null {
    const { facts } = entry;
    if (facts.call) {
      const group = this.#callGroup(facts.call.kind, facts.call.callId, facts.call.parentCallId, facts.toolName);
      if (facts.kindKey === "ToolCallStarted" && stringField(entry.frame.payload, "source") === "act") this.#openActCalls.add(group);
      else if (facts.kindKey === "ToolCallFinished") this.#openActCalls.delete(group);
      return group;
    }
    // A gate denial naming no call (an action authorized by hand, a recording older than the call
    // id on the action) joins a call only when exactly one act() call of that tool is open on its
    // branch: with two, a guess could mark the call that was allowed.
    if (facts.kindKey === "GateDenied") return this.#onlyOpenActCall(facts.toolName, facts.branchId);
    // A model call reported on the session bus without a call id (api.pre_call → chunks →
    // api.post_call) is the oldest one still open on the same branch.
    if (isModelPoint(facts.kindKey)) {
      const lane = facts.branchId;
      let open = this.#openModelCalls.get(lane);
      if (!open) this.#openModelCalls.set(lane, (open = []));
      if (facts.kindKey === "api.pre_call" || open.length === 0) {
        const group = this.#callGroup("model", `#${entry.seq}`, null, null);
        if (facts.kindKey !== "api.post_call") open.push(group);
        return group;
      }
      const group = open[0]!;
      if (facts.kindKey === "api.post_call") open.shift();
      return group;
    }
    // act() records a call as a plain Signal carrying no call id: it joins the call of the same
    // tool that reported the same duration, else the newest such call still without a record.
    if (facts.kindKey === "Signal" && facts.toolName && facts.toolInstanceId) {
      const waiting = this.#awaitingRecord.get(facts.toolName);
      if (!waiting?.length) return null;
      let index = waiting.length - 1;
      if (facts.durationMs !== null) {
        const same = waiting.findIndex((group) => group.durationMs === facts.durationMs);
        if (same >= 0) index = same;
      }
      const [group] = waiting.splice(index, 1);
      group!.hasRecord = true;
      this.#callOfToolInstance.set(facts.toolInstanceId, group!);
      return group!;
    }
    // An action request names the Tool it calls, a response the Tool that answered. The request
    // follows its call's hook signals (and record, when the call succeeded): it joins the call
    // that record named, else the newest tool call still without a request.
    if (facts.messagePeer && facts.actionMessage === "request") {
      let group = this.#callOfToolInstance.get(facts.messagePeer);
      if (!group || group.hasActionRequest) group = this.#latestToolCall?.hasActionRequest === false ? this.#latestToolCall : undefined;
      if (!group) return null;
      group.hasActionRequest = true;
      this.#callOfToolInstance.set(facts.messagePeer, group);
      return group;
    }
    if (facts.messagePeer) return this.#callOfToolInstance.get(facts.messagePeer) ?? null;
    return null;
  }

  #onlyOpenActCall(toolName: string | null, branchId: string | null): CallGroup | null {
    let found: CallGroup | null = null;
    for (const group of this.#openActCalls) {
      if (group.name !== toolName || group.branchId !== branchId) continue;
      if (found) return null;
      found = group;
    }
    return found;
  }

  /** The group of this call, made (and nested in its parent, counted) when it is new. */
  #callGroup(kind: CallKind, callId: string, parentCallId: string | null, toolName: string | null): CallGroup {
    const key = `${kind}:${callId}`;
    let group = this.#groups.get(key);
    if (group) return group;
    group = new CallGroup(kind, callId);
    this.#groups.set(key, group);
    if (kind === "tool") this.toolCalls++;
    else this.modelCalls++;
    const parent = parentCallId ? this.#parentGroup(kind, parentCallId) : undefined;
    if (parent && parent !== group) {
      group.parent = parent;
      parent.children.push(group);
    } else this.items.push(group);
    if (kind === "tool" && toolName) this.#awaitRecord(toolName, group);
    if (kind === "tool") this.#latestToolCall = group;
    return group;
  }

  /**
   * The call a `parentCallId` names: an act() call names its Executor tool call, an IModel call
   * its Executor model call. Tool and model call ids are separate spaces, so a call of the same
   * kind is looked for first; the other kind after it, as the OpenTelemetry export (one map of
   * open calls) nests a call under whatever call its parent id names.
   */
  #parentGroup(kind: CallKind, parentCallId: string): CallGroup | undefined {
    const other: CallKind = kind === "tool" ? "model" : "tool";
    return this.#groups.get(`${kind}:${parentCallId}`) ?? this.#groups.get(`${other}:${parentCallId}`);
  }

  #awaitRecord(toolName: string, group: CallGroup): void {
    let waiting = this.#awaitingRecord.get(toolName);
    if (!waiting) this.#awaitingRecord.set(toolName, (waiting = []));
    waiting.push(group);
    if (waiting.length > RECORD_CANDIDATES) waiting.shift();
  }
}

/** `group` when it keeps signals, else the calls nested in it that do (now children of `parent`). */
function survivors(group: CallGroup, parent: CallGroup | null, emptied: ReadonlySet<CallGroup>): CallGroup[] {
  if (!emptied.has(group)) {
    group.parent = parent;
    return [group];
  }
  return group.children.flatMap((child) => survivors(child, parent, emptied));
}

/** Puts `next` in place of what `array` held (no spread: a session may hold 100,000 rows). */
function replaceAll<T>(array: T[], next: readonly T[]): void {
  array.length = 0;
  for (const item of next) array.push(item);
}
