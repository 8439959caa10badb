import { Node, SourceFile } from "ts-morph";

/** A range of the analysed text, as character offsets. */
export interface TextRange {
  start: number;
  end: number;
}

let recording: (TextRange & { file: SourceFile })[] | undefined;
let installed = false;
/** Inside `getText`, which reads the file's whole text to cut its own range out: not a read of everything. */
let withinGetText = false;

/**
 * Runs `work` and returns the ranges of source text it read (per file) through ts-morph's
 * `Node#getText` and `getFullText`: the text a rule may quote in a message or copy into a fix. An
 * edit outside these ranges cannot change such text (see neutralEdit.ts).
 */
export function recordTextReads<T>(work: () => T): { value: T; reads: (file: SourceFile) => TextRange[] } {
  install();
  const outer = recording;
  const all: (TextRange & { file: SourceFile })[] = [];
  recording = all;
  try {
    const value = work();
    return { value, reads: (file) => all.filter((read) => read.file === file).map(({ start, end }) => ({ start, end })) };
  } finally {
    recording = outer;
  }
}

/** Wraps the two methods once; outside a recording they only pay one variable check. */
function install(): void {
  if (installed) return;
  installed = true;
  const proto = Node.prototype as unknown as {
    getText(this: Node, ...args: unknown[]): string;
    getFullText(this: Node): string;
  };
  const getText = proto.getText;
  const getFullText = proto.getFullText;
  proto.getText = function (this: Node, ...args: unknown[]): string {
    // getStart(true) reaches back over JSDoc, which getText can include: the widest range it reads.
    recording?.push({ start: this.getStart(true), end: this.getEnd(), file: this.getSourceFile() });
    const outer = withinGetText;
    withinGetText = true;
    try {
      return getText.apply(this, args);
    } finally {
      withinGetText = outer;
    }
  };
  proto.getFullText = function (this: Node): string {
    recording?.push({ start: this.getPos(), end: this.getEnd(), file: this.getSourceFile() });
    return getFullText.call(this);
  };
  // SourceFile has its own getFullText (the whole text).
  const fileProto = SourceFile.prototype as unknown as { getFullText(this: SourceFile): string };
  const fileText = fileProto.getFullText;
  fileProto.getFullText = function (this: SourceFile): string {
    if (!withinGetText) recording?.push({ start: 0, end: this.getEnd(), file: this });
    return fileText.call(this);
  };
}
