/**
 * A shell command line read the way a POSIX shell splits it, leniently (never throws): simple
 * commands separated by `;`, `&`, `&&`, `||`, `|`, `|&`, newlines and parentheses, each a list of
 * words with quotes and backslashes removed, plus the targets of its redirections. The text of
 * every command substitution (`$(…)`, backquotes; also inside double quotes) is read as command
 * lines of their own. Variables, globs, aliases and functions are left as written: nothing is
 * expanded, so what they stand for is not seen.
 */
export interface SimpleCommand {
  readonly words: string[];
  /** `>`, `>>`, `>|`, `&>`, `<>` … with the word they redirect to. */
  readonly redirects: { readonly operator: string; readonly target: string }[];
}

const SEPARATORS = new Set([";", "&", "|", "\n", "\r", "(", ")"]);
const MAX_NESTING = 8;

/** Every simple command in `line`, substitutions included (to a nesting of 8). */
export function simpleCommands(line: string, depth = 0): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  let current: SimpleCommand = { words: [], redirects: [] };
  let word = "";
  let started = false;
  let redirect: string | null = null;
  const nested = (text: string): void => {
    if (depth < MAX_NESTING) commands.push(...simpleCommands(text, depth + 1));
  };
  const endWord = (): void => {
    if (!started) return;
    if (redirect !== null) current.redirects.push({ operator: redirect, target: word });
    else current.words.push(word);
    redirect = null;
    word = "";
    started = false;
  };
  const endCommand = (): void => {
    endWord();
    if (current.words.length > 0 || current.redirects.length > 0) commands.push(current);
    current = { words: [], redirects: [] };
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      word += line.slice(i + 1, end < 0 ? line.length : end);
      started = true;
      i = end < 0 ? line.length : end;
    } else if (ch === '"') {
      i = readDoubleQuoted(line, i, (text) => (word += text), nested);
      started = true;
    } else if (ch === "\\") {
      // A backslash-newline joins lines; any other escaped character is literal.
      if (line[i + 1] !== "\n") word += line[i + 1] ?? "";
      started = true;
      i++;
    } else if (ch === "$" && line[i + 1] === "(") {
      const end = closingParen(line, i + 2);
      nested(line.slice(i + 2, end));
      word += line.slice(i, end + 1);
      started = true;
      i = end;
    } else if (ch === "`") {
      const end = closingBackquote(line, i + 1);
      nested(line.slice(i + 1, end));
      started = true;
      i = end;
    } else if (ch === "#" && !started) {
      const end = line.indexOf("\n", i);
      i = (end < 0 ? line.length : end) - 1;
    } else if (ch === " " || ch === "\t") {
      endWord();
    } else if (ch === ">" || ch === "<" || (ch === "&" && line[i + 1] === ">")) {
      if (/^\d+$/.test(word)) (word = ""), (started = false); // a file descriptor number: `2>`
      endWord();
      let operator = ch;
      while (i + 1 < line.length && "<>|&".includes(line[i + 1]!) && operator.length < 3) operator += line[++i];
      redirect = operator;
    } else if (SEPARATORS.has(ch)) {
      endCommand();
    } else {
      word += ch;
      started = true;
    }
  }
  endCommand();
  return commands;
}

function readDoubleQuoted(line: string, open: number, append: (text: string) => void, nested: (text: string) => void): number {
  for (let i = open + 1; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '"') return i;
    if (ch === "\\" && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1]!)) {
      if (line[i + 1] !== "\n") append(line[i + 1]!);
      i++;
    } else if (ch === "$" && line[i + 1] === "(") {
      const end = closingParen(line, i + 2);
      nested(line.slice(i + 2, end));
      i = end;
    } else if (ch === "`") {
      const end = closingBackquote(line, i + 1);
      nested(line.slice(i + 1, end));
      i = end;
    } else append(ch);
  }
  return line.length;
}

/** The index of the `)` closing a substitution whose text starts at `from` (or the line's end). */
function closingParen(line: string, from: number): number {
  let depth = 1;
  let quote: string | null = null;
  for (let i = from; i < line.length; i++) {
    const ch = line[i]!;
    if (quote !== null) {
      if (ch === quote) quote = null;
      else if (ch === "\\" && quote === '"') i++;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "\\") i++;
    else if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) return i;
  }
  return line.length;
}

function closingBackquote(line: string, from: number): number {
  for (let i = from; i < line.length; i++) {
    if (line[i] === "\\") i++;
    else if (line[i] === "`") return i;
  }
  return line.length;
}
