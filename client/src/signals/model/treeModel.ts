import type { LiveRun, LiveSession, SignalStore } from "../signalStore.js";
import { CallGroup, type SignalEntry } from "./callGroup.js";
import {
  branchDescription,
  branchLabel,
  callLabel,
  callTooltip,
  phaseLabel,
  runDescription,
  runLabel,
  sessionDescription,
  sessionLabel,
  signalTooltip,
  timeDescription,
} from "./labels.js";
import { formatCount } from "./format.js";
import { hasProblem, type BranchView, type SessionItem } from "./branchedRows.js";
import { NO_FILTER, isFilterActive, itemMatches, signalMatches, type SignalFilter } from "./signalFilter.js";
import { GROUP_STYLES, kindStyle, type KindStyle } from "./signalKinds.js";
import type { HookPhase } from "./signalFacts.js";

/** A row of the Signals tree. Ids are stable for a row's lifetime, so expansion survives refreshes. */
export type TreeNode =
  | { readonly type: "run"; readonly id: string; readonly run: LiveRun }
  | { readonly type: "session"; readonly id: string; readonly run: LiveRun; readonly session: LiveSession }
  | { readonly type: "branch"; readonly id: string; readonly run: LiveRun; readonly session: LiveSession; readonly branchId: string }
  | { readonly type: "call"; readonly id: string; readonly run: LiveRun; readonly session: LiveSession; readonly group: CallGroup }
  | { readonly type: "signal"; readonly id: string; readonly run: LiveRun; readonly session: LiveSession; readonly entry: SignalEntry }
  | { readonly type: "phase"; readonly id: string; readonly run: LiveRun; readonly session: LiveSession; readonly phase: HookPhase; readonly entry: SignalEntry }
  | { readonly type: "range"; readonly id: string; readonly container: TreeNode; readonly start: number; readonly end: number };

/** How a row looks; the VS Code adapter turns it into a TreeItem. */
export interface NodeView {
  readonly id: string;
  readonly label: string;
  readonly description: string;
  readonly icon: string;
  readonly color: string | null;
  readonly collapsible: "none" | "collapsed" | "expanded";
  /** For menus: `hooklens.run`, `hooklens.recording`, `hooklens.session`, `hooklens.call`, `hooklens.signal` (each + `.source` when it names a place in the program). */
  readonly contextValue: string;
}

export type TreeMode = "grouped" | "flat";

export interface TreeSettings {
  /** Children shown at once; more are split into ranges (as the debugger does for long arrays). */
  readonly pageSize: number;
}

type Source = SessionItem | BranchView | LiveSession | PhaseRow;
interface PhaseRow {
  readonly phase: HookPhase;
  readonly entry: SignalEntry;
  readonly index: number;
}

/**
 * The Signals tree as plain data: runs → sessions → branches → calls (grouped by call id) →
 * signals, or a flat timeline per session; filtered; children paged into ranges. Children lists
 * are cached per container and rebuilt only when its session changed or the filter/mode did.
 */
export class SignalTreeModel {
  #mode: TreeMode = "grouped";
  #filter: SignalFilter = NO_FILTER;
  #stamp = 0;
  readonly #cache = new Map<string, { key: string; sources: Source[] }>();

  constructor(
    readonly store: SignalStore,
    public settings: TreeSettings = { pageSize: 200 },
  ) {}

  get mode(): TreeMode {
    return this.#mode;
  }

  set mode(mode: TreeMode) {
    if (mode === this.#mode) return;
    this.#mode = mode;
    this.#invalidate();
  }

  get filter(): SignalFilter {
    return this.#filter;
  }

  set filter(filter: SignalFilter) {
    this.#filter = filter;
    this.#invalidate();
  }

  roots(): TreeNode[] {
    return this.store.runs().map((run) => runNode(run));
  }

  children(node: TreeNode): TreeNode[] {
    if (node.type === "range") return this.#page(node.container, this.#sources(node.container).slice(node.start, node.end), node.start);
    if (node.type === "signal" || node.type === "phase") return [];
    return this.#page(node, this.#sources(node), 0);
  }

  /** The node a row hangs under (a range when its list is paged), for reveal; null for a run. */
  parent(node: TreeNode): TreeNode | null {
    if (node.type === "run") return null;
    if (node.type === "range") return node.container;
    const path = this.pathTo(node);
    return path && path.length > 1 ? path[path.length - 2]! : null;
  }

  /** The rows from a run down to `node`, ranges included, or null when it is not shown (filtered out, gone). */
  pathTo(node: TreeNode): TreeNode[] | null {
    if (node.type === "run") return [node];
    if (node.type === "range") {
      const above = this.pathTo(node.container);
      return above && [...above, node];
    }
    const path: TreeNode[] = [runNode(node.run)];
    for (const step of this.#steps(node)) {
      const next = this.#find(path, step);
      if (!next) return null;
    }
    return path;
  }

  /** The row of one signal in the current mode, or null when it is filtered out or gone. */
  signalNode(run: LiveRun, session: LiveSession, entry: SignalEntry): TreeNode | null {
    const node: TreeNode = { type: "signal", id: signalId(run, session, entry), run, session, entry };
    const path = this.pathTo(node);
    return path ? path[path.length - 1]! : null;
  }

  /** What must be found, level by level, below the run to reach `node`. */
  #steps(node: Exclude<TreeNode, { type: "run" | "range" }>): Array<(source: Source) => boolean> {
    const steps: Array<(source: Source) => boolean> = [(source) => source === node.session];
    if (node.type === "session") return steps;
    const branchStep = (branchId: string | null): void => {
      if (branchId !== null) steps.push((source) => isBranchView(source) && source.branchId === branchId);
    };
    const groupSteps = (group: CallGroup): void => {
      const chain: CallGroup[] = [];
      for (let at: CallGroup | null = group; at; at = at.parent) chain.unshift(at);
      node.session.model.grouped();
      branchStep(chain[0]!.shownBranchId);
      for (const link of chain) steps.push((source) => source === link);
    };
    if (node.type === "branch") branchStep(node.branchId);
    else if (node.type === "call") groupSteps(node.group);
    else {
      const { entry } = node;
      if (this.#mode === "flat") steps.push((source) => source === entry);
      else if (entry.group) {
        groupSteps(entry.group);
        steps.push((source) => source === entry);
      } else {
        branchStep(entry.facts.branchId);
        steps.push((source) => source === entry);
      }
      if (node.type === "phase") steps.push((source) => "phase" in source && source.entry === entry && source.phase === node.phase);
    }
    return steps;
  }

  /** Appends to `path` the rows (through ranges) down to the child of its last row that `matches`. */
  #find(path: TreeNode[], matches: (source: Source) => boolean): TreeNode | null {
    const container = path[path.length - 1]!;
    const sources = this.#sources(container);
    const index = sources.findIndex(matches);
    if (index < 0) return null;
    let children = this.children(container);
    for (;;) {
      const range = children.find((child) => child.type === "range" && child.start <= index && index < child.end);
      if (!range) break;
      path.push(range);
      children = this.children(range);
    }
    const target = this.#node(container, sources[index]!);
    path.push(target);
    return target;
  }

  view(node: TreeNode): NodeView {
    switch (node.type) {
      case "run": {
        const { run } = node;
        const style = run.recordedFrom !== null ? GROUP_STYLES.recording : run.connected ? GROUP_STYLES.liveRun : GROUP_STYLES.endedRun;
        return this.#view(node, runLabel(run), runDescription(run), style, "expanded", run.recordedFrom !== null ? "hooklens.recording" : "hooklens.run");
      }
      case "session": {
        const { session } = node;
        const problems = session.model.errorRows > 0 ? GROUP_STYLES.error : GROUP_STYLES.session;
        return this.#view(node, sessionLabel(session), sessionDescription(session), problems, "expanded", "hooklens.session");
      }
      case "branch": {
        const branch = node.session.model.grouped().branches.get(node.branchId) ?? { branchId: node.branchId, name: null, items: [], errors: 0, denials: 0, signals: 0 };
        const style = branch.errors > 0 ? { ...GROUP_STYLES.branch, color: GROUP_STYLES.error.color } : GROUP_STYLES.branch;
        return this.#view(node, branchLabel(branch), branchDescription(branch), style, "expanded", "hooklens.branch");
      }
      case "call": {
        const { group, session } = node;
        const style = group.errors > 0 ? GROUP_STYLES.error : group.denials > 0 ? GROUP_STYLES.denied : GROUP_STYLES[group.kind];
        const description = timeDescription(session.model.startedAt ?? group.first.frame.createdAt, group.first.frame.createdAt, group.durationMs);
        return this.#view(node, callLabel(group), description, style, "collapsed", group.source ? "hooklens.call.source" : "hooklens.call");
      }
      case "signal": {
        const { entry, session } = node;
        const { facts } = entry;
        const style = signalStyle(entry);
        const description = timeDescription(session.model.startedAt ?? entry.frame.createdAt, entry.frame.createdAt, facts.durationMs);
        const context = facts.source ? "hooklens.signal.source" : "hooklens.signal";
        const collapsible = this.#mode === "grouped" && facts.hookPhases.length > 0 && entry.group === null ? "collapsed" : "none";
        return this.#view(node, facts.label, description, style, collapsible, context);
      }
      case "phase": {
        const { phase } = node;
        const style = phase.error ? GROUP_STYLES.error : GROUP_STYLES.hookPhase;
        const description = phase.durationMs === null ? "" : timeDescription(0, 0, phase.durationMs).replace(/^\+0 ms · /, "");
        return this.#view(node, phaseLabel(phase), description, style, "none", phase.source ? "hooklens.phase.source" : "hooklens.phase");
      }
      case "range": {
        const label = `${(node.start + 1).toLocaleString("en-US")}–${node.end.toLocaleString("en-US")}`;
        return this.#view(node, label, formatCount(node.end - node.start, "row"), GROUP_STYLES.range, "collapsed", "hooklens.range");
      }
    }
  }

  /** Signals shown and held over all runs (for the view's message when a filter is on). */
  matchCounts(): { shown: number; total: number } {
    let shown = 0;
    let total = 0;
    for (const run of this.store.runs()) {
      for (const session of run.sessions.values()) {
        total += session.model.size;
        if (!isFilterActive(this.#filter)) shown += session.model.size;
        else for (const entry of session.model.entries) if (signalMatches(entry, this.#filter)) shown++;
      }
    }
    return { shown, total };
  }

  #view(node: TreeNode, label: string, description: string, style: KindStyle, collapsible: NodeView["collapsible"], contextValue: string): NodeView {
    return { id: node.id, label, description, icon: style.icon, color: style.color, collapsible, contextValue };
  }

  /** A row's Markdown tooltip: built only when hovered (VS Code resolves it lazily), never per redraw. */
  tooltip(node: TreeNode): string {
    switch (node.type) {
      case "run":
        return [`**${runLabel(node.run)}**`, "", runDescription(node.run), node.run.recordedFrom ? `\n\nfrom \`${node.run.recordedFrom}\`` : ""].join("");
      case "session":
        return `**session** \`${node.session.sessionId}\``;
      case "branch":
        return `**branch** \`${node.branchId}\``;
      case "call":
        return callTooltip(node.group);
      case "signal":
        return signalTooltip(node.entry);
      case "phase":
        return `**service hook** \`${node.phase.hookType}\``;
      case "range":
        return "";
    }
  }

  #invalidate(): void {
    this.#stamp++;
    this.#cache.clear();
  }

  /** Everything under a container, filtered, before paging. Cached until its session changes. */
  #sources(node: TreeNode): Source[] {
    const session = "session" in node ? node.session : null;
    const key = `${this.#stamp}|${session ? session.model.version : node.type === "run" ? runVersion(node.run) : 0}`;
    const cached = this.#cache.get(node.id);
    if (cached?.key === key) return cached.sources;
    const sources = this.#computeSources(node);
    this.#cache.set(node.id, { key, sources });
    return sources;
  }

  #computeSources(node: TreeNode): Source[] {
    const filter = this.#filter;
    const active = isFilterActive(filter);
    switch (node.type) {
      case "run":
        return [...node.run.sessions.values()].filter((session) => !active || this.#sources({ type: "session", id: sessionId(node.run, session), run: node.run, session }).length > 0);
      case "session": {
        const { model } = node.session;
        if (this.#mode === "flat") return active ? model.entries.filter((entry) => signalMatches(entry, filter)) : model.entries;
        const rows = model.grouped().rows;
        if (!active) return rows;
        return rows.filter((row) => (isBranchView(row) ? row.items.some((item) => itemMatches(item, filter)) : itemMatches(row, filter)));
      }
      case "branch": {
        const branch = node.session.model.grouped().branches.get(node.branchId);
        if (!branch) return [];
        return active ? branch.items.filter((item) => itemMatches(item, filter)) : branch.items;
      }
      case "call":
        return callChildren(node.group);
      case "signal":
        return node.entry.facts.hookPhases.map((phase, index) => ({ phase, entry: node.entry, index }));
      default:
        return [];
    }
  }

  /** Turns sources into rows; more than a page become ranges of pageSize^k rows each. */
  #page(container: TreeNode, sources: readonly Source[], offset: number): TreeNode[] {
    const pageSize = Math.max(10, this.settings.pageSize);
    if (sources.length <= pageSize) return sources.map((source) => this.#node(container, source));
    let span = pageSize;
    while (Math.ceil(sources.length / span) > pageSize) span *= pageSize;
    const ranges: TreeNode[] = [];
    for (let start = 0; start < sources.length; start += span) {
      const end = Math.min(sources.length, start + span);
      ranges.push({ type: "range", id: `${container.id}/range:${offset + start}-${offset + end}`, container, start: offset + start, end: offset + end });
    }
    return ranges;
  }

  #node(container: TreeNode, source: Source): TreeNode {
    const { run, session } = containerContext(container);
    if ("sessionId" in source && "model" in source) return { type: "session", id: sessionId(run, source), run, session: source };
    if (!session) throw new Error("a row below a run needs its session");
    if (isBranchView(source)) return { type: "branch", id: `${sessionId(run, session)}/branch:${source.branchId}`, run, session, branchId: source.branchId };
    if (source instanceof CallGroup) return { type: "call", id: callId(run, session, source), run, session, group: source };
    if ("phase" in source) return { type: "phase", id: `${signalId(run, session, source.entry)}/phase:${source.index}`, run, session, phase: source.phase, entry: source.entry };
    return { type: "signal", id: signalId(run, session, source), run, session, entry: source };
  }

}

/** A call's rows: its signals and nested calls in time order, a finished model call's hook phases before it. */
function callChildren(group: CallGroup): Source[] {
  const rows: Source[] = [];
  let child = 0;
  for (const entry of group.members) {
    while (child < group.children.length && group.children[child]!.first.seq < entry.seq) rows.push(group.children[child++]!);
    entry.facts.hookPhases.forEach((phase, index) => rows.push({ phase, entry, index }));
    rows.push(entry);
  }
  while (child < group.children.length) rows.push(group.children[child++]!);
  return rows;
}

function signalStyle(entry: SignalEntry): KindStyle {
  const style = kindStyle(entry.facts.kindKey);
  if (entry.facts.problem === "error" && style.icon !== "error") return { ...style, icon: "error", color: GROUP_STYLES.error.color };
  return style;
}

function isBranchView(source: unknown): source is BranchView {
  return typeof source === "object" && source !== null && "branchId" in source && "items" in source && !(source instanceof CallGroup);
}

function containerContext(node: TreeNode): { run: LiveRun; session: LiveSession | null } {
  if (node.type === "range") return containerContext(node.container);
  return { run: node.run, session: "session" in node ? node.session : null };
}

function runVersion(run: LiveRun): number {
  let version = run.sessions.size;
  for (const session of run.sessions.values()) version += session.model.version;
  return version;
}

export function runNode(run: LiveRun): TreeNode {
  return { type: "run", id: `run:${run.connectionId}`, run };
}

export function sessionId(run: LiveRun, session: LiveSession): string {
  return `run:${run.connectionId}/session:${session.sessionId}`;
}

export function callId(run: LiveRun, session: LiveSession, group: CallGroup): string {
  return `${sessionId(run, session)}/call:${group.key}`;
}

export function signalId(run: LiveRun, session: LiveSession, entry: SignalEntry): string {
  return `${sessionId(run, session)}/signal:${entry.seq}`;
}

export { hasProblem };
