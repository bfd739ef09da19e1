import { CREDENTIAL_SOURCES, type CredentialId } from '../credentials';
import type { Exchange } from '../model';
import { flipOf, type Flip } from '../setup/flip';

/**
 * Stop sending with a credential that expired during the run (issue 31): once a configured credential
 * that the target served was refused on every request that carried it from one moment on
 * (harness/setup/flip.ts), the ordinary requests that carry it are not sent (clean-ups still are): they
 * would be refused too, and prove nothing. The run's diagnosis names it.
 */
export class CredentialWatch {
  private readonly carried = new Map<string, Exchange[]>();
  private readonly flips = new Map<string, Flip | undefined>();

  /** Take in an exchange the client recorded (answered or not). */
  observe(e: Exchange): void {
    if (!e.response) return;
    for (const id of e.credentials ?? []) {
      this.carried.set(id, [...(this.carried.get(id) ?? []), e]);
      this.flips.delete(id);
    }
  }

  /** Why a request carrying these credentials is not sent, or undefined. */
  expired(ids: readonly string[]): string | undefined {
    for (const id of ids) {
      if (!this.flips.has(id)) this.flips.set(id, flipOf(this.carried.get(id) ?? []));
      const flip = this.flips.get(id);
      if (flip)
        return (
          `not sent: ${CREDENTIAL_SOURCES[id as CredentialId]} was served until ${flip.lastServed.startedAt}, then ` +
          `refused on every request that carried it (${flip.refusals} on ${flip.operations} operation` +
          `${flip.operations === 1 ? '' : 's'}): it expired or was revoked during the run, so the run stopped ` +
          `sending with it`
        );
    }
    return undefined;
  }
}
