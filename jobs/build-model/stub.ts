/**
 * BLS hierarchical grouping ("stub") files map UCCs to published line items. Layout (fixed columns, see
 * IStub2014.txt): col 1 line type (`1` line, `2` title continuation, `*` unprinted), col 4 level, title from
 * col 7, code (UCC or group name) from col 70, then the type letter (G group, I/D item, S, T title).
 */
export interface StubLine {
  readonly level: number;
  readonly title: string;
  readonly code: string;
  readonly kind: string;
  readonly section: string;
  /** UCCs below (or equal to) this line, filled in after parsing. */
  readonly uccs: Set<string>;
}

const CODE_COLUMN = 69;

export function parseStub(text: string): StubLine[] {
  const lines: StubLine[] = [];
  for (const raw of text.split(/\r?\n/)) {
    if (!raw.startsWith('1')) continue;
    const [code = '', kind = '', , section = ''] = raw.slice(CODE_COLUMN).trim().split(/\s+/);
    lines.push({
      level: Number(raw.slice(3, 6).trim()),
      title: raw.slice(6, CODE_COLUMN).trim(),
      code,
      kind,
      section,
      uccs: new Set(),
    });
  }
  // A line's UCCs are its own code (if an item) plus those of the deeper lines that follow it.
  for (let i = 0; i < lines.length; i++) {
    const head = lines[i]!;
    if (/^\d{6}$/.test(head.code)) head.uccs.add(head.code);
    for (let j = i + 1; j < lines.length && lines[j]!.level > head.level; j++) {
      const line = lines[j]!;
      if (/^\d{6}$/.test(line.code)) head.uccs.add(line.code);
    }
  }
  return lines;
}

/** UCCs of the group (or item) with this code; the first line with the code, in file order. */
export function uccsOf(stub: readonly StubLine[], code: string): Set<string> {
  const line = stub.find((l) => l.code === code);
  if (!line) throw new Error(`stub has no line with code ${code}`);
  return line.uccs;
}
