import type { CaseReport } from '../model';

/**
 * Text from a configuration or a target, made safe to print on a terminal: no escape sequence can
 * recolour, move the cursor, rewrite a line (CR) or start a new one that looks like the suite's own
 * (a "Verdict: conformant" line). Call it on anything untrusted before it reaches stdout or stderr.
 */

/** ANSI/VT escape sequences: CSI (ESC [ … final), OSC (ESC ] … BEL or ST), and two-character escapes. */
const ESCAPE_SEQUENCE =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u009b[0-?]*[ -/]*[@-~]|\u001b[@-_]?/g;
/** C0 controls but tab and line feed, DEL, C1 controls, and the Unicode controls that reorder text (bidi) or hide it.
 * */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** Lines kept (a multi-line message stays multi-line); every other control character removed. */
export function terminalText(s: string): string {
  return s.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '');
}

/** One line: as terminalText, and a line break becomes a space (for a value printed inside a line: a name, a URL). */
export function terminalLine(s: string): string {
  return terminalText(s).replace(/\n/g, ' ');
}

/** An output whose every line passes terminalText. */
export function terminalSafe<T extends { out(line: string): void; err(line: string): void }>(io: T): T {
  return { ...io, out: (l: string) => io.out(terminalText(l)), err: (l: string) => io.err(terminalText(l)) };
}

/**
 * Case reports as the console may show them: what came from the target (a check's description and
 * received value, the reason) without control characters, and a check's values on one line, so a crafted answer cannot
 * add a
 * line of its own.
 */
export function casesForTerminal(cases: CaseReport[]): CaseReport[] {
  return cases.map((c) => ({
    ...c,
    reason: c.reason === undefined ? undefined : terminalText(c.reason),
    checks: c.checks.map((k) => ({
      ...k,
      description: terminalLine(k.description),
      received: k.received === undefined ? undefined : terminalLine(k.received),
    })),
  }));
}
