import type { CheckOutput, FileReport } from "./report.js";

type Write = (text: string) => void;

/**
 * A JSON array of file reports, written as it grows: `[` first, then one report per line as each
 * file is done, `]` at the end. A run that dies midway leaves every finished report on its own
 * line, readable one by one. Each finding carries the link to its rule's page.
 */
export function jsonOutput(write: Write, docsUrl: (code: string) => string): CheckOutput {
  let first = true;
  write("[\n");
  return {
    file(report: FileReport) {
      const findings = report.findings.map((finding) => ({ ...finding, docs: docsUrl(finding.code) }));
      write(`${first ? "" : ",\n"}${JSON.stringify({ ...report, findings })}`);
      first = false;
    },
    finish() {
      write(first ? "]\n" : "\n]\n");
    },
  };
}
