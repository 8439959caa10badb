/**
 * How a PostgreSQL store names its database in messages and errors: a URL without the password,
 * so logs, error messages and CLI output can be shared safely.
 */
import { REDACTION_MASK } from "../../shared/redaction/index.js";
import type { PgResolvedParameters } from "./postgresDriver.js";

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/** True for a `postgres://` or `postgresql://` connection URL. */
export function isPostgresUrl(text: string): boolean {
  return POSTGRES_URL.test(text);
}

/** `postgres://user@host:port/database`, from the parameters pg resolved; never the password. */
export function describeTarget(params: PgResolvedParameters): string {
  const user = params.user ? `${params.user}@` : "";
  const host = params.host ?? "localhost";
  // An IPv6 address needs brackets; a Unix socket folder is shown as it is.
  const shownHost = host.includes(":") && !host.startsWith("/") ? `[${host}]` : host;
  const port = params.port ? `:${params.port}` : "";
  return `postgres://${user}${shownHost}${port}/${params.database ?? ""}`;
}

/** A best-effort target for a connection string pg has not parsed yet (the driver may be missing). */
export function describeConnectionString(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return describeTarget({
      user: decodeURIComponent(url.username) || null,
      host: decodeURIComponent(url.hostname) || url.searchParams.get("host"),
      port: url.port || null,
      database: decodeURIComponent(url.pathname.replace(/^\//, "")) || null,
    });
  } catch {
    return "PostgreSQL (unparsable connection string)";
  }
}

/** Replaces every occurrence of `secret` in `text`, in case a driver message ever quotes it. */
export function scrub(text: string, secret: unknown): string {
  if (typeof secret !== "string" || secret.length === 0) return text;
  const forms = new Set([secret, encodeURIComponent(secret)]);
  let clean = text;
  for (const form of forms) clean = clean.split(form).join(REDACTION_MASK);
  return clean;
}
