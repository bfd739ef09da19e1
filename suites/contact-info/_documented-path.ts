import type { CaseContext } from '../../harness/case';
import { receivedSummary } from '../../harness/checks/verdict';
import type { HttpResult } from '../../harness/http/client';
import type { ContactUpdate } from '../../data-builders/contact-info';
import { is2xx, type Customer } from './customer';

/**
 * OP10-PATH, judged by harness/rules on what the log shows. A 405 at the documented path says the
 * operation is not served there. A 404 may say that, or that the configured customer is not on record
 * (a target answers both "no such path" and "no such customer" with 404): the same update, changing
 * nothing (the values on record), is then sent with the v1 segment the other operations carry ("The
 * contact update path carries no version segment"), and is part of the log the rule reads. Served
 * there: the documented path is not the operation's, a failure. Not served there either: could not
 * test, naming the customerId to check. `sent` is the update the case sent (its objects are repeated
 * with the values on record).
 */
export async function verifyDocumentedPath(
  t: CaseContext,
  c: Customer,
  res: HttpResult,
  sent: ContactUpdate,
): Promise<void> {
  if (res.status !== 404) return t.judge(res, 'OP10-PATH');
  await servedElsewhere(t, c, res, sent);
  t.judgeLog(c.judgedLog, 'OP10-PATH');
}

/**
 * After a 404 at the documented path: the answer of the same update, changing nothing, with a v1
 * segment, where it was served there; else the case is could not test, naming the customerId.
 */
export async function servedElsewhere(
  t: CaseContext,
  c: Customer,
  res: HttpResult,
  sent: ContactUpdate,
): Promise<HttpResult> {
  const versioned = `/v1${c.path}`;
  const probe = await t.step(
    `the documented path answered 404: the same update, ` + `changing nothing, at {baseUrl}${versioned}`,
    () => c.sendUnchangedAt(versioned, sent, 'the same update, changing nothing, ' + 'with a v1 segment'),
  );
  if (is2xx(probe.status)) return probe;
  const key = c.configKey('customerId');
  t.couldNotTest(
    `the documented path ${res.exchange.request.url} answered 404 (${receivedSummary(res)}), and the ` +
      `same update with a v1 segment was not served either (status ${probe.status}): ` +
      `either the operation is not served at that path, or no customer ${JSON.stringify(c.customerId)} ` +
      `(userIdType ${c.datum.userIdType}) is on record; check ${key}`,
    key,
  );
}
