import { scrub } from "./postgresTarget.js";
import {
  SignalStoreAuthError,
  SignalStoreError,
  SignalStoreMissingError,
  SignalStoreUnreachableError,
  SignalStoreUnwritableError,
} from "../errors.js";

/** Node socket errors that mean "no server there (now)". */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "EPIPE", "ENOENT"]);
/** pg's own messages for a connection that dropped or never completed; they carry no code. */
const CONNECTION_LOST = /Connection terminated|connection timeout|timeout expired|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable/i;
/** SQLSTATEs of a server that is shutting down or starting up: admin_shutdown, crash_shutdown, cannot_connect_now. */
const SERVER_GOING = new Set(["57P01", "57P02", "57P03"]);
const AUTH_CODES = new Set(["28P01", "28000"]);
/** pg refuses before asking the server when SCRAM needs a password it was not given. */
const AUTH_CLIENT_SIDE = /SASL|client password must be a string/;
/** Transient server conditions worth another try: too many connections, out of resources, deadlock, serialization. */
const TRANSIENT = /^(53|40001|40P01)/;

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "";
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** True when the server is gone or unreachable: the connection, not the statement, failed. */
export function isUnreachableError(error: unknown): boolean {
  if (error instanceof SignalStoreUnreachableError) return true;
  const code = codeOf(error);
  return NETWORK_CODES.has(code) || SERVER_GOING.has(code) || code.startsWith("08") || CONNECTION_LOST.test(messageOf(error));
}

/** True when writing again later may succeed: the server is away or briefly out of capacity. */
export function isRetryableError(error: unknown): boolean {
  return isUnreachableError(error) || TRANSIENT.test(codeOf(error));
}

/**
 * Turns a pg error into the specific store error. Messages name the database by `target` (no
 * password) and are scrubbed of `secret` as well, since they end up in logs and CLI output.
 */
export function classifyPostgresError(error: unknown, target: string, doing: string, secret?: unknown): SignalStoreError {
  if (error instanceof SignalStoreError) return error;
  const code = codeOf(error);
  const reason = scrub(messageOf(error), secret);
  const options = { cause: error };
  if (isUnreachableError(error)) {
    return new SignalStoreUnreachableError(target, `cannot reach the PostgreSQL server of ${target} while ${doing}: ${reason || code}`, options);
  }
  if (AUTH_CODES.has(code) || AUTH_CLIENT_SIDE.test(reason)) {
    return new SignalStoreAuthError(target, `PostgreSQL refused the login to ${target} while ${doing}: ${reason} (check the user and password)`, options);
  }
  if (code === "3D000") {
    return new SignalStoreMissingError(target, `no database at ${target} (${reason}); create it first or fix the connection string`, options);
  }
  if (code === "42501" || code === "25006") {
    return new SignalStoreUnwritableError(target, `cannot write ${target} while ${doing}: ${reason} (missing privilege or a read-only server?)`, options);
  }
  return new SignalStoreError(target, `PostgreSQL error on ${target} while ${doing}: ${reason}${code ? ` (${code})` : ""}`, options);
}
