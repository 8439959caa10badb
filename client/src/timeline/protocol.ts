import { z } from "zod";

/**
 * The messages between the timeline webview and the extension. The extension validates every
 * message the webview sends (a webview is a web page: treat what it says as untrusted input);
 * what the extension sends is built from these types and checked in tests.
 */

export const timelineStatusSchema = z.enum(["ok", "error", "denied", "open"]);

/** A hook phase inside a bar: one signal, drawn as a segment (it has a duration) or a tick. */
export const timelinePhaseSchema = z.object({
  label: z.string(),
  startMs: z.number().nonnegative(),
  endMs: z.number().nonnegative(),
  status: timelineStatusSchema,
  signalId: z.string(),
});

/** One row of the waterfall: a session, a branch run, a tool call or a model call. */
export const timelineBarSchema = z.object({
  /** Stable across updates, so the webview can replace a bar in place as a live call ends. */
  id: z.string().min(1),
  kind: z.enum(["session", "run", "tool", "model"]),
  label: z.string(),
  /** Duration, outcome and counts in words, e.g. `12 ms · error: not found`. */
  detail: z.string(),
  sessionId: z.string(),
  branchId: z.string().nullable(),
  startMs: z.number().nonnegative(),
  endMs: z.number().nonnegative(),
  /** Call order, as the tree lists calls: the sequence number of the bar's first signal in its session. */
  order: z.number().int().nonnegative(),
  status: timelineStatusSchema,
  /** The bar of the call this one runs inside (an Executor call around its act()), when known. */
  parentId: z.string().nullable(),
  /** Nesting level: session 0, branch run 1, call 1 or 2 (inside a run), one deeper than its parent call. */
  depth: z.number().int().nonnegative(),
  /** The signal a click on the bar opens. */
  signalId: z.string(),
  phases: z.array(timelinePhaseSchema),
  signalCount: z.number().int().nonnegative(),
});

export const timelineLayoutSchema = z.object({
  /** POSIX seconds of the run's first signal; bar times are milliseconds after it. */
  startedAt: z.number(),
  durationMs: z.number().nonnegative(),
  bars: z.array(timelineBarSchema),
});

/** A run the timeline can show, for its picker. */
export const timelineRunSchema = z.object({ runId: z.number().int(), title: z.string(), live: z.boolean() });

/** Extension → webview. */
export const toWebviewSchema = z.discriminatedUnion("type", [
  /** Everything the webview shows, sent when it (re)loads or the shown run changes. */
  z.object({
    type: z.literal("reset"),
    runs: z.array(timelineRunSchema),
    runId: z.number().int().nullable(),
    layout: timelineLayoutSchema,
    /** Bars left out beyond the configured maximum (the newest calls are shown; sessions always). */
    omittedBars: z.number().int().nonnegative(),
  }),
  /** What changed since the previous message: new or changed bars, removed ids, the run list. */
  z.object({
    type: z.literal("update"),
    runs: z.array(timelineRunSchema),
    durationMs: z.number().nonnegative(),
    upsert: z.array(timelineBarSchema),
    remove: z.array(z.string()),
    omittedBars: z.number().int().nonnegative(),
  }),
]);

/** Webview → extension. */
export const fromWebviewSchema = z.discriminatedUnion("type", [
  /** The page has loaded its script and wants the whole state. */
  z.object({ type: z.literal("ready") }),
  /** A bar or phase was clicked: open that signal. */
  z.object({ type: z.literal("openSignal"), sessionId: z.string().min(1).max(256), signalId: z.string().min(1).max(256) }),
  /** The user picked another run in the webview's picker. */
  z.object({ type: z.literal("selectRun"), runId: z.number().int() }),
]);

export type TimelineStatus = z.infer<typeof timelineStatusSchema>;
export type TimelinePhase = z.infer<typeof timelinePhaseSchema>;
export type TimelineBar = z.infer<typeof timelineBarSchema>;
export type TimelineLayout = z.infer<typeof timelineLayoutSchema>;
export type TimelineRun = z.infer<typeof timelineRunSchema>;
export type ToWebview = z.infer<typeof toWebviewSchema>;
export type FromWebview = z.infer<typeof fromWebviewSchema>;

/** Parses a message from the webview; null for anything that is not one of {@link fromWebviewSchema}. */
export function parseFromWebview(message: unknown): FromWebview | null {
  const parsed = fromWebviewSchema.safeParse(message);
  return parsed.success ? parsed.data : null;
}
