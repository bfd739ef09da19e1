import type { Exchange, SafetySwitch, TransportErrorKind } from '../model';

/** The request never got an HTTP answer that can be judged: the case is "could not test". */
export class TransportError extends Error {
  override name = 'TransportError';
  /**
   * No attempt behind this error left the machine (its exchange is notSent, and so was every earlier
   * attempt of a clean-up retry): the request cannot have changed anything on the target.
   */
  neverSent: boolean;
  /** The target said it did not process the request (429, or a 500 that names a throttle: ./throttling.ts). */
  notProcessed?: true;
  constructor(
    public kind: TransportErrorKind,
    message: string,
    public exchange?: Exchange,
  ) {
    super(message);
    this.neverSent = exchange?.notSent === true;
  }
}

/** Whether e is a request failure that certainly sent nothing (see TransportError.neverSent). */
export function nothingSent(e: unknown): boolean {
  return e instanceof TransportError && e.neverSent;
}

/** The target's configuration does not allow this request: it was refused before leaving the machine. */
export class NotAllowedError extends Error {
  override name = 'NotAllowedError';
  constructor(
    public safetySwitch: SafetySwitch,
    public method: string,
    public url: string,
    /** Why, where the switch is on but a limit stops the request (harness/transfer-budget.ts). */
    public why?: string,
  ) {
    super(
      why ??
        `not allowed on this target: ${method} ${url} needs ` +
          `allow.${safetySwitch} = true in the target's configuration`,
    );
  }
}
