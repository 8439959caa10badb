import { requireString } from "../../shared/arguments.js";
/** A command the bash tool will not run because it needs a shell to mean what it says. */
export class ShellSyntaxError extends Error {
  override name = "ShellSyntaxError";
}

const OPERATORS = new Set(["|", "&", ";", "<", ">", "(", ")", "`", "$", "\n", "\r"]);
const WILDCARDS = new Set(["*", "?"]);

/**
 * Splits a command line into argv words the way a shell would for plain commands: whitespace
 * separates, single quotes are literal, double quotes and backslashes escape. Anything a shell
 * would interpret — pipes, redirection, `;`, `&`, substitution, variables, wildcards, `~`, comments —
 * is refused with a ShellSyntaxError, since no shell will run it.
 */
export function splitCommand(command: string): string[] {
  requireString(command, "splitCommand(command)", "command");
  const words: string[] = [];
  let word = "";
  let started = false;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (ch === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new ShellSyntaxError("unterminated single quote");
      word += command.slice(i + 1, end);
      started = true;
      i = end;
    } else if (ch === '"') {
      i = readDoubleQuoted(command, i, (text) => (word += text));
      started = true;
    } else if (ch === "\\") {
      if (i + 1 >= command.length) throw new ShellSyntaxError("trailing backslash");
      word += command[++i];
      started = true;
    } else if (ch === " " || ch === "\t") {
      if (started) words.push(word);
      word = "";
      started = false;
    } else if (OPERATORS.has(ch)) {
      throw new ShellSyntaxError(`shell operator ${JSON.stringify(ch)} is not supported: commands run without a shell`);
    } else if (WILDCARDS.has(ch)) {
      throw new ShellSyntaxError(`wildcard ${JSON.stringify(ch)} is not expanded without a shell; quote it or use the search tool`);
    } else if (!started && (ch === "~" || ch === "#")) {
      throw new ShellSyntaxError(`${JSON.stringify(ch)} at the start of a word needs a shell; spell the path or text out`);
    } else {
      word += ch;
      started = true;
    }
  }
  if (started) words.push(word);
  if (words.length === 0) throw new ShellSyntaxError("empty command");
  return words;
}

function readDoubleQuoted(command: string, open: number, append: (text: string) => void): number {
  for (let i = open + 1; i < command.length; i++) {
    const ch = command[i]!;
    if (ch === '"') return i;
    if (ch === "$" || ch === "`") throw new ShellSyntaxError(`${JSON.stringify(ch)} inside double quotes needs a shell; use single quotes`);
    if (ch === "\\" && i + 1 < command.length && '"\\$`'.includes(command[i + 1]!)) {
      append(command[++i]!);
      continue;
    }
    append(ch);
  }
  throw new ShellSyntaxError("unterminated double quote");
}
