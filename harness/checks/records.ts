import type { HttpResult } from '../log/entry';
import { fail, notApplicable, pass, type CheckVerdict } from './verdict';

type Rec = Record<string, unknown>;

/**
 * A listed record belongs to the user the list was asked for: its institutionUserId is one of the
 * ids that user is known by (the one sent, or the one the target gave a record the run created for
 * that user). A record without a string institutionUserId is reported by the members and types checks.
 */
export function belongs_to_user(
  record: Rec,
  userIds: ReadonlySet<string>,
  where: string,
  res?: HttpResult,
): CheckVerdict {
  const known = [...userIds].map((u) => JSON.stringify(u)).join(' or ');
  const d = `${where} is a record of the user asked for (institutionUserId ${known})`;
  const v = record.institutionUserId;
  if (typeof v !== 'string')
    return notApplicable(
      'belongs_to_user',
      d,
      `${where} has no string institutionUserId (reported by ` + `OP4-RESPONSE-MEMBERS / RES-USERDISC-FIELD-TYPES)`,
      res,
    );
  return userIds.has(v)
    ? pass('belongs_to_user', d, res)
    : fail(
        'belongs_to_user',
        d,
        `institutionUserId ${known}`,
        `a record of ${JSON.stringify(v)}: ` + `${JSON.stringify(record).slice(0, 200)}`,
        res,
      );
}

/** A list asked for another consumer shows none of the configured user's records (a refusal shows none). */
export function shows_none_of(
  records: Rec[],
  isTheUsers: (r: Rec) => boolean,
  who: string,
  res: HttpResult,
): CheckVerdict {
  const d = `shows none of ${who}'s records`;
  if (res.status < 200 || res.status > 299) return pass('shows_none_of', d, res, `refused: answered ${res.status}`);
  const shown = records.filter(isTheUsers);
  return shown.length === 0
    ? pass('shows_none_of', d, res, `listed ${records.length} record(s), none of ${who}`)
    : fail(
        'shows_none_of',
        d,
        `no record of ${who} (or a refusal)`,
        `${shown.length} record(s) of ${who}: ` + `${JSON.stringify(shown).slice(0, 300)}`,
        res,
      );
}

/**
 * Records a request did not name are listed afterwards as they were before: each one (compared on the
 * members given) is still listed with the same values.
 */
export function records_unchanged(before: Rec[], after: Rec[], where: string, res?: HttpResult): CheckVerdict {
  const d = `${where} are listed unchanged afterwards (${before.length} record${before.length === 1 ? '' : 's'})`;
  const same = (a: Rec, b: Rec) => Object.keys(a).every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
  const left = [...after];
  const missing: Rec[] = [];
  for (const r of before) {
    const i = left.findIndex((a) => same(r, a));
    if (i >= 0) left.splice(i, 1);
    else missing.push(r);
  }
  if (missing.length === 0) return pass('records_unchanged', d, res);
  const now = (r: Rec) =>
    after.find(
      (a) =>
        a.institutionDisclosureName === r.institutionDisclosureName &&
        (r.accountId === undefined || a.accountId === r.accountId),
    );
  return fail(
    'records_unchanged',
    d,
    missing.map((r) => JSON.stringify(r)).join('; '),
    missing
      .map((r) => {
        const n = now(r);
        return n ? `now ${JSON.stringify(n)}` : `"${String(r.institutionDisclosureName)}" ` + `no longer listed`;
      })
      .join('; ') +
      ' (a record the run did not create must be ' +
      'put back by hand)',
    res,
  );
}
