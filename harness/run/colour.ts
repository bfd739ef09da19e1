import { EXIT } from './exit-codes';

/**
 * Colour on a terminal, none when the output is piped or NO_COLOR is set (https://no-color.org: any non-empty
 * value), nor on a terminal that says it cannot (TERM=dumb). Only the verdict line is coloured: green when
 * conformant, red when not (or the evidence was refused), yellow when the run has no full verdict (issue 34).
 */
export function colourWanted(tty: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  return tty === true && !env.NO_COLOR && env.TERM !== 'dumb';
}

const GREEN = 32;
const RED = 31;
const YELLOW = 33;

/** The SGR colour of an exit code's verdict line, if any. */
function colourOf(exitCode: number): number | undefined {
  if (exitCode === EXIT.CONFORMANT) return GREEN;
  if (exitCode === EXIT.NON_CONFORMANT || exitCode === EXIT.EVIDENCE_REFUSED) return RED;
  if (exitCode === EXIT.COULD_NOT_TEST || exitCode === EXIT.PARTLY_TESTED || exitCode === EXIT.INTERRUPTED)
    return YELLOW;
  return undefined;
}

/** The line in the verdict's colour (bold), or as it is. */
export function paintVerdict(line: string, exitCode: number, colour: boolean): string {
  const c = colour ? colourOf(exitCode) : undefined;
  return c === undefined ? line : `\u001b[1;${c}m${line}\u001b[0m`;
}
