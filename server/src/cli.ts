import { parseArgs } from "node:util";
import { redactText } from "@hooklens/runtime";
import { RecordedDbError } from "./cli/recordedDb.js";
import { sessionsCommand, type OutputFormat } from "./cli/sessions.js";
import { showCommand } from "./cli/show.js";
import type { CheckFormat } from "./cli/check/command.js";
import { DEFAULT_MAX_FILE_BYTES, parseFileSize } from "./cli/check/fileSize.js";
import { SERVER_VERSION } from "./version.js";

const USAGE = `Usage: hooklens check [paths...] [--project tsconfig.json] [--format text|json|sarif]
                      [--max-warnings N] [--allow-incomplete] [--follow-symlinks] [--max-file-size 1MB]
       hooklens sessions [--db path|postgres://…] [--format text|json]
       hooklens show <sessionId> [--db path|postgres://…] [--format text|json]
       hooklens --version | --help

check     analyses TypeScript and JavaScript files for misuse of @hooklens/runtime, printing each
          file's findings as it is done. --project checks the files of that tsconfig with its
          options (paths then narrow it). Rule levels come from the nearest hooklens.config.json.
          Links to folders are not followed unless --follow-symlinks; broken links, FIFOs and
          other files that are not regular files, and files over --max-file-size (default 1MB),
          are reported as not analysed.
sessions  lists the sessions recorded in a signal database.
show      prints one recorded session's signals in order.
--db defaults to $HOOKLENS_DB, else .hooklens/signals.db under the current folder; a postgres:// or
postgresql:// URL reads a PostgreSQL database (needs the pg package).
Exit codes: 0 clean (or warnings within --max-warnings), 1 problems found, 2 usage or internal error
(a missing path, tsconfig or database, a wrong config file, an unknown session), 3 no problems but
some file not fully analysed (syntax errors, unresolved runtime, unreadable file, a failed rule)
unless --allow-incomplete. Details: docs/cli.md.`;

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
        project: { type: "string" },
        "allow-incomplete": { type: "boolean" },
        "follow-symlinks": { type: "boolean" },
        "max-file-size": { type: "string" },
        db: { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
    });
  } catch (error) {
    process.stderr.write(`hooklens: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...paths] = positionals;
  if (values.version) {
    process.stdout.write(`${SERVER_VERSION}\n`);
    return 0;
  }
  if (values.help || command === undefined) {
    process.stdout.write(USAGE + "\n");
    return values.help ? 0 : 2;
  }
  if (!COMMANDS.has(command)) {
    process.stderr.write(`hooklens: unknown command "${command}"\n${USAGE}\n`);
    return 2;
  }
  const formats = command === "check" ? ["text", "json", "sarif"] : ["text", "json"];
  if (!formats.includes(values.format)) {
    process.stderr.write(`hooklens: --format must be ${formats.map((f) => `"${f}"`).join(", ").replace(/, ([^,]*)$/, " or $1")}, got "${values.format}"\n`);
    return 2;
  }
  if (command === "sessions" || command === "show") return recorded(command, paths, values.db, values.format as OutputFormat);
  const maxWarnings = values["max-warnings"] === undefined ? 0 : Number(values["max-warnings"]);
  if (!Number.isInteger(maxWarnings) || maxWarnings < 0) {
    process.stderr.write(`hooklens: --max-warnings must be a whole number, got "${values["max-warnings"]}"\n`);
    return 2;
  }
  const maxFileBytes = values["max-file-size"] === undefined ? DEFAULT_MAX_FILE_BYTES : parseFileSize(values["max-file-size"]);
  if (maxFileBytes === undefined) {
    process.stderr.write(`hooklens: --max-file-size must be a size in bytes, KB or MB (such as 2MB), got "${values["max-file-size"]}"\n`);
    return 2;
  }
  // Loaded on demand, from its own bundle once built (scripts/cliBundles.mjs): the analyzer pulls in
  // ts-morph and TypeScript, which the other commands never need.
  const { checkCommand } = await import("./cli/check/command.js");
  return checkCommand({
    paths,
    format: values.format as CheckFormat,
    maxWarnings,
    project: values.project,
    allowIncomplete: values["allow-incomplete"] ?? false,
    followSymlinks: values["follow-symlinks"] ?? false,
    maxFileBytes,
    bundleDir: __dirname,
    cwd: process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
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
    // A database URL in the message may carry a password.
    process.stderr.write(`hooklens: ${redactText(error.message)}\n`);
    return 2;
  }
}

// A reader that stops early (`hooklens check | head`) closes the pipe: stop quietly, as other CLIs do.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(process.exitCode ?? 0);
});

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`hooklens: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
