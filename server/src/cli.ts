import { parseArgs } from "node:util";
import { RecordedDbError } from "./cli/recordedDb.js";
import { sessionsCommand, type OutputFormat } from "./cli/sessions.js";
import { showCommand } from "./cli/show.js";
import { docsUrlResolver } from "./docsLinks.js";

const USAGE = `Usage: hooklens check [paths...] [--format text|json] [--max-warnings N]
       hooklens sessions [--db path|postgres://…] [--format text|json]
       hooklens show <sessionId> [--db path|postgres://…] [--format text|json]

check     analyses TypeScript and JavaScript files for misuse of @hooklens/runtime.
sessions  lists the sessions recorded in a signal database.
show      prints one recorded session's signals in order.
--db defaults to $HOOKLENS_DB, else .hooklens/signals.db under the current folder; a postgres:// or
postgresql:// URL reads a PostgreSQL database (needs the pg package).
Exit codes: 0 clean (or warnings within --max-warnings), 1 problems found, 2 usage or internal error
(including a missing or unreadable database and an unknown session).`;

const COMMANDS = new Set(["check", "sessions", "show"]);

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        format: { type: "string", default: "text" },
        "max-warnings": { type: "string" },
        db: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    process.stderr.write(`hooklens: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...paths] = positionals;
  if (values.help || command === undefined) {
    process.stdout.write(USAGE + "\n");
    return values.help ? 0 : 2;
  }
  if (!COMMANDS.has(command)) {
    process.stderr.write(`hooklens: unknown command "${command}"\n${USAGE}\n`);
    return 2;
  }
  if (values.format !== "text" && values.format !== "json") {
    process.stderr.write(`hooklens: --format must be "text" or "json", got "${values.format}"\n`);
    return 2;
  }
  if (command === "sessions" || command === "show") return recorded(command, paths, values.db, values.format);
  const maxWarnings = values["max-warnings"] === undefined ? 0 : Number(values["max-warnings"]);
  if (!Number.isInteger(maxWarnings) || maxWarnings < 0) {
    process.stderr.write(`hooklens: --max-warnings must be a whole number, got "${values["max-warnings"]}"\n`);
    return 2;
  }
  // Loaded on demand: the analyzer pulls in ts-morph and TypeScript, which `sessions` and `show` never need.
  const [{ checkPaths, formatText }, { MissingPathError }] = await Promise.all([import("./cli/check.js"), import("./cli/collectFiles.js")]);
  let reports;
  try {
    reports = checkPaths(paths.length > 0 ? paths : ["."]);
  } catch (error) {
    if (!(error instanceof MissingPathError)) throw error;
    process.stderr.write(`hooklens: ${error.message}\n`);
    return 2;
  }
  const docsUrl = docsUrlResolver(__dirname);
  if (values.format === "json") {
    const withDocs = reports.map((r) => ({ ...r, findings: r.findings.map((f) => ({ ...f, docs: docsUrl(f.code) })) }));
    process.stdout.write(JSON.stringify(withDocs, null, 2) + "\n");
  } else {
    process.stdout.write(formatText(reports, process.cwd()) + "\n");
  }
  const findings = reports.flatMap((r) => r.findings);
  const errors = findings.filter((f) => f.severity === "error").length;
  const warnings = findings.length - errors;
  return errors > 0 || warnings > maxWarnings ? 1 : 0;
}

/** `sessions` and `show`: read a recorded signal database. */
async function recorded(command: "sessions" | "show", args: string[], db: string | undefined, format: OutputFormat): Promise<number> {
  const expected = command === "show" ? 1 : 0;
  if (args.length !== expected) {
    const what = command === "show" ? "exactly one session id" : "no arguments";
    process.stderr.write(`hooklens: ${command} takes ${what}\n${USAGE}\n`);
    return 2;
  }
  try {
    const output = command === "show" ? await showCommand(args[0]!, db, format) : await sessionsCommand(db, format);
    process.stdout.write(output + "\n");
    return 0;
  } catch (error) {
    if (!(error instanceof RecordedDbError)) throw error;
    process.stderr.write(`hooklens: ${error.message}\n`);
    return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`hooklens: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
