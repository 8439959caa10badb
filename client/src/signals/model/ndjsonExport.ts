import { z } from "zod";
import { liveFrameSchema, signalFrameSchema, type SignalFrame } from "@hooklens/runtime/live";
import type { LiveRun } from "../signalStore.js";
import { SIGNALS_DROPPED_KIND } from "./signalFacts.js";

/**
 * A run exported as NDJSON: a header line, then one live-protocol `signal` frame per line, in
 * each session's order (drop markers included, as `SignalsDropped` signals). A file of plain
 * live frames with no header opens too.
 */
export const EXPORT_FORMAT = "hooklens-signals";
export const EXPORT_VERSION = 1;

const headerSchema = z.object({
  type: z.literal("run"),
  format: z.literal(EXPORT_FORMAT),
  version: z.number().int().positive(),
  title: z.string().max(512),
  pid: z.number().int().nonnegative(),
  exportedAt: z.string(),
  dropped: z.number().int().nonnegative().optional(),
});
export type ExportHeader = z.infer<typeof headerSchema>;

/** The lines of a run's export, each without its newline; a generator, so 100k signals never make one string. */
export function* exportLines(run: LiveRun, now = new Date()): Generator<string> {
  const header: ExportHeader = { type: "run", format: EXPORT_FORMAT, version: EXPORT_VERSION, title: run.title, pid: run.pid, exportedAt: now.toISOString(), dropped: run.dropped };
  yield JSON.stringify(header);
  for (const session of run.sessions.values()) for (const frame of session.signals) yield JSON.stringify(frame);
}

/** What an export file held. */
export interface ParsedExport {
  readonly header: ExportHeader | null;
  /** Per session, its signals in file order. */
  readonly sessions: Map<string, SignalFrame[]>;
  /** Lines that were neither a header nor a valid frame (counted, not shown). */
  skipped: number;
}

/** Reads an export line by line (feed it every line; blank lines are ignored). */
export class ExportReader {
  readonly result: ParsedExport = { header: null, sessions: new Map(), skipped: 0 };
  #lastSession: string | null = null;
  #markers = 0;

  line(text: string): void {
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.result.skipped++;
      return;
    }
    const header = headerSchema.safeParse(value);
    if (header.success && this.result.header === null) {
      (this.result as { header: ExportHeader | null }).header = header.data;
      return;
    }
    const frame = liveFrameSchema.safeParse(value);
    if (!frame.success) {
      this.result.skipped++;
      return;
    }
    if (frame.data.type === "signal") this.#add(frame.data);
    else if (frame.data.type === "dropped" && this.#lastSession !== null) {
      // A captured live stream: its drop reports become markers where they occurred.
      const marker = signalFrameSchema.parse({
        type: "signal",
        sessionId: this.#lastSession,
        branchId: null,
        id: `dropped-import-${++this.#markers}`,
        kind: SIGNALS_DROPPED_KIND,
        createdAt: this.result.sessions.get(this.#lastSession)!.at(-1)!.createdAt,
        payload: { count: frame.data.count, reason: "the program could not send them to the editor" },
      });
      this.#add(marker);
    }
  }

  #add(frame: SignalFrame): void {
    let frames = this.result.sessions.get(frame.sessionId);
    if (!frames) this.result.sessions.set(frame.sessionId, (frames = []));
    frames.push(frame);
    this.#lastSession = frame.sessionId;
  }
}

export function parseExport(text: string): ParsedExport {
  const reader = new ExportReader();
  for (const line of text.split("\n")) reader.line(line);
  return reader.result;
}
