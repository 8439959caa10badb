import type { RecordedSession } from "@hooklens/runtime";
import { withRecordedDb } from "./recordedDb.js";

export type OutputFormat = "text" | "json";

/** `hooklens sessions`: the sessions recorded in a signal database, oldest first. */
export async function sessionsCommand(db: string | undefined, format: OutputFormat): Promise<string> {
  const { path, sessions } = await withRecordedDb(db, async (store) => ({ path: store.name, sessions: await store.listSessions() }));
  return format === "json" ? JSON.stringify(sessions, null, 2) : formatSessionsText(sessions, path);
}

/** One line per session: id, first and last signal time (UTC), signal count. */
export function formatSessionsText(sessions: readonly RecordedSession[], path: string): string {
  if (sessions.length === 0) return `No recorded sessions in ${path}.`;
  const width = Math.max(...sessions.map((s) => s.sessionId.length));
  const lines = sessions.map(
    (s) => `${s.sessionId.padEnd(width)}  ${isoTime(s.firstTs)}  ${isoTime(s.lastTs)}  ${s.signalCount} signal(s)`,
  );
  lines.push(`${sessions.length} session(s) in ${path}.`);
  return lines.join("\n");
}

/** POSIX seconds as an ISO-8601 UTC time with milliseconds. */
export function isoTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}
