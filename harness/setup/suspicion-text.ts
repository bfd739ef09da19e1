import { CREDENTIAL_SOURCES } from '../credentials';
import type { Exchange } from '../model';
import { errorExcerpt } from './error-names';
import type { SetupSuspicion } from './proof';

/** The words of the diagnosis: what to check for each suspicion of harness/setup/proof.ts. */

/** What the operator should check for a suspicion: the key or variable, in one phrase. */
export function suspicionKey(s: SetupSuspicion): string {
  return s.kind === 'credential' || s.kind === 'expired' ? CREDENTIAL_SOURCES[s.key] : s.key;
}

/** One line saying why a verdict could come from the setup. */
export function suspicionText(s: SetupSuspicion, e: Exchange): string {
  const got = `e.g. ${e.response?.status} to ${e.request.method} ${e.request.url}`;
  switch (s.kind) {
    case 'base':
      return [
        `nothing sent to ${s.key} was answered other than 404 in this run (${got}):`,
        `check ${s.key}, including its path prefix`,
      ].join(' ');
    case 'credential': {
      const near = s.nearVariant;
      if (near)
        return (
          `the target refused ${CREDENTIAL_SOURCES[s.key]} as configured and let a near variant of it ` +
          'past authentication ' +
          `(${near.response?.status} to ${near.request.method} ${near.request.url}: ${near.label ?? 'a variant'}): ` +
          'the configured value is off by a character; check it for a character too many or too few (a trailing ' +
          'space or newline) or in another letter case'
        );
      return [
        `the target refused ${CREDENTIAL_SOURCES[s.key]} on every request that carried it (${got}):`,
        'check that it is valid, not expired and allowed for this operation',
      ].join(' ');
    }
    case 'expired': {
      const f = s.flip;
      const last = `${f.lastServed.request.method} ${f.lastServed.request.url}`;
      return (
        `the target served ${CREDENTIAL_SOURCES[s.key]} until ${f.lastServed.startedAt} (${last}), then refused ` +
        `it on every request that carried it, ${f.refusals} on ${f.operations} operations (${got}): it expired ` +
        `or was revoked during the run; check its lifetime (give the run a token that outlives it)`
      );
    }
    case 'testData': {
      const error = errorExcerpt(e);
      const all = s.candidates?.length ? s.candidates : [s.key];
      return [
        `the target refused every request that relied on ${all.join(' and ')} (${got}${
          error ? `; its error: ${error}` : ''
        }):`,
        `check that ${all.join(' and ')} ${all.length > 1 ? 'are' : 'is'} on record on the target`,
      ].join(' ');
    }
    case 'contradicted':
      return (
        `the target's own lists (operation 1) show the disclosures of institutionId ${s.listed.join(', ')} only, ` +
        `not the configured ${JSON.stringify(s.value)} that ${e.request.method} ${e.request.url} carried ` +
        `(${e.response?.status}): what it answers for another FI proves nothing; check ${s.key}`
      );
    case 'control': {
      const status = e.response?.status;
      const where = status === 404 || status === 405 ? 'that method and path' : 'that operation';
      const because = s.blocked ? ` (the tests that send one could not test because of ${s.key})` : '';
      if (s.unserved)
        return (
          `the refusal of ${e.request.method} ${e.request.url} (${status}) proves nothing: ${s.key} with the ` +
          `configured credentials at a proven base URL; its own tests report that as the target's failure`
        );
      return (
        `the refusal of ${e.request.method} ${e.request.url} (${status}) proves nothing: no request to ${where} ` +
        `was served with the configured credentials in this run${because}; check ${s.key}`
      );
    }
  }
}
