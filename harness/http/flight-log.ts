import type { HttpResult, Logged, Sent } from '../log/entry';
import type { RunLog } from '../log/run-log';
import type { Exchange } from '../model';
import { loggedExchange, sendingRequest, unansweredExchange } from './logged';
import type { SendOptions } from './send-options';

/**
 * One request's part in the run log (harness/log/run-log.ts), the only place the client writes to it: registered as
 * it leaves the client, before its first attempt; settled by its answered entry or its unanswered one (status 0);
 * once the client is done with it (answered, thrown, or never sent), dropped where nothing was sent, else kept as
 * sent with no entry (RunLog.ended): a 429 the target did not process, an answer after the log was closed.
 */
export class FlightLog {
  /** Nothing of this request left the machine, as its last record says (an answer, even a 429, did). */
  private sentNothing = false;

  constructor(
    private readonly log: RunLog,
    private readonly o: SendOptions,
    private readonly seq: number,
    private readonly request: Omit<Sent, 'endMs'>,
  ) {}

  /** The request leaves the client: in flight in the log. */
  leave(): void {
    this.log.sending(sendingRequest(this.o, this.request, this.seq));
  }

  /** What was sent, and when the client is done with it (now). */
  sent(): Sent {
    return { ...this.request, endMs: Date.now() };
  }

  /** Every record of the request (redacted): the last one says whether anything was sent. */
  recorded(ex: Exchange): void {
    this.sentNothing = ex.notSent === true;
    this.log.recorded(ex);
  }

  /** The answer the client returns: its entry (in clear), appended. */
  answered(result: HttpResult, unauthorized: boolean): Logged | undefined {
    const logged = loggedExchange(this.o, this.sent(), result, unauthorized);
    this.log.append(logged);
    return logged;
  }

  /** Sent, and no answer the client returns: the entry of status 0, appended apart. */
  unanswered(ex: Exchange): void {
    if (!ex.notSent) this.log.appendUnanswered(unansweredExchange(this.o, this.sent(), ex));
  }

  /** The client is done with the request: where no entry settled it, dropped if nothing was sent, else kept. */
  ended(): void {
    this.log.ended(this.seq, this.sentNothing);
  }
}
