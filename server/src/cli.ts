import { parseArgs } from "node:util";
import { checkPaths, formatText } from "./cli/check.js";
import { MissingPathError } from "./cli/collectFiles.js";
import { docsUrlResolver } from "./docsLinks.js";

const USAGE = `Usage: hooklens check [paths...] [--format text|json] [--max-warnings N]

Analyses TypeScript and JavaScript files for misuse of @hooklens/runtime.
Exit codes: 0 clean (or warnings within --max-warnings), 1 problems found, 2 usage or internal error.`;

function main(argv: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        format: { type: "string", default: "text" },
        "max-warnings": { type: "string" },
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
  if (command !== "check") {
    process.stderr.write(`hooklens: unknown command "${command}"\n${USAGE}\n`);
    return 2;
  }
  if (values.format !== "text" && values.format !== "json") {
    process.stderr.write(`hooklens: --format must be "text" or "json", got "${values.format}"\n`);
    return 2;
  }
  const maxWarnings = values["max-warnings"] === undefined ? 0 : Number(values["max-warnings"]);
  if (!Number.isInteger(maxWarnings) || maxWarnings < 0) {
    process.stderr.write(`hooklens: --max-warnings must be a whole number, got "${values["max-warnings"]}"\n`);
    return 2;
  }
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

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`hooklens: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 2;
}
