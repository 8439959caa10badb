import { z } from "zod";
import { requireName, requireObject, requireString } from "../shared/arguments.js";

/**
 * The live-signal protocol between a program using the runtime and the editor: NDJSON over a
 * private local socket, one frame per line. The extension validates every line with these
 * schemas; the runtime builds frames that satisfy them.
 */
export const LIVE_PROTOCOL_VERSION = 1;
/** Longest line either side accepts, newline excluded. */
export const MAX_FRAME_BYTES = 64 * 1024;
/** The environment variable that carries `<endpoint>?token=<hex>` to the program. */
export const LIVE_ENV = "HOOKLENS_LIVE";

const jsonObject = z.record(z.string(), z.unknown());

/** First frame of a connection: proves the program was started by this editor. */
export const helloFrameSchema = z.object({
  type: z.literal("hello"),
  protocol: z.number().int().positive(),
  token: z.string().regex(/^[0-9a-f]{16,128}$/, "token must be 16–128 lowercase hex digits"),
  pid: z.number().int().nonnegative(),
  title: z.string().max(512),
});

/** One recorded signal, JSON-safe and capped as for persistence. */
export const signalFrameSchema = z.object({
  type: z.literal("signal"),
  sessionId: z.string().min(1).max(256),
  branchId: z.string().max(256).nullable(),
  id: z.string().min(1).max(256),
  kind: z.string().min(1).max(256),
  createdAt: z.number().finite(),
  payload: jsonObject,
});

/** How many frames the program could not send since the previous `dropped` frame. */
export const droppedFrameSchema = z.object({ type: z.literal("dropped"), count: z.number().int().positive() });

/** The program is done; the editor may close the connection. */
export const byeFrameSchema = z.object({ type: z.literal("bye") });

export const liveFrameSchema = z.discriminatedUnion("type", [
  helloFrameSchema,
  signalFrameSchema,
  droppedFrameSchema,
  byeFrameSchema,
]);

export type HelloFrame = z.infer<typeof helloFrameSchema>;
export type SignalFrame = z.infer<typeof signalFrameSchema>;
export type DroppedFrame = z.infer<typeof droppedFrameSchema>;
export type ByeFrame = z.infer<typeof byeFrameSchema>;
export type LiveFrame = z.infer<typeof liveFrameSchema>;

/** Where to connect and with which token, as carried by {@link LIVE_ENV}. */
export interface LiveEndpoint {
  endpoint: string;
  token: string;
}

/** A `{ endpoint, token }` from a JavaScript caller, both non-empty strings. */
export function checkLiveEndpoint(live: LiveEndpoint, where: string): LiveEndpoint {
  const { endpoint, token } = requireObject(live, where, "live ({ endpoint, token })");
  requireName(endpoint, where, "live.endpoint");
  requireName(token, where, "live.token");
  return live;
}

/** Builds the value of {@link LIVE_ENV}. */
export function formatLiveEnv(live: LiveEndpoint): string {
  const { endpoint, token } = checkLiveEndpoint(live, "formatLiveEnv(live)");
  return `${endpoint}?token=${token}`;
}

/** Parses {@link LIVE_ENV}; null when it is absent or malformed (live streaming is then off). */
export function parseLiveEnv(value: string | undefined): LiveEndpoint | null {
  if (!value) return null;
  requireString(value, "parseLiveEnv(value)", "value (the HOOKLENS_LIVE text)");
  const at = value.lastIndexOf("?token=");
  if (at <= 0) return null;
  const endpoint = value.slice(0, at);
  const token = value.slice(at + "?token=".length);
  return /^[0-9a-f]{16,128}$/.test(token) ? { endpoint, token } : null;
}
