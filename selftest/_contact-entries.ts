import type { HttpResult, Logged } from '../harness/log/entry';
import { RunLog } from '../harness/log/run-log';

/** Log entries of contact updates for the contact folds' unit tests (log in, queries out). */

/** An update of `customer`'s contact data answered `status` (0: no answer), exchange `index` of the run. */
export function update(index: number, status: number, body: Record<string, unknown>, customer = 'c-1'): Logged {
  const requestBody = JSON.stringify({ userIdType: 'CUSTOMER_ID', ...body });
  return {
    x: {
      index,
      startMs: index * 100,
      startPrecisionMs: 1,
      endMs: index * 100 + 10,
      startedAt: '',
      durationMs: 10,
      method: 'PUT',
      url: `https://bank.example/customers/${customer}:contact-info`,
      requestHeaders: { 'content-type': 'application/json' },
      requestBody,
      status,
      responseHeaders: {},
      responseBody: '',
    },
    res: { status, text: '' } as unknown as HttpResult,
    mapped: { operation: 'updateContactInfo', pathParams: { customerId: customer }, query: new URLSearchParams() },
    authority: 'configured',
  };
}

export const phone = (oldPhoneNumber: string, newPhoneNumber: string) => ({
  phoneNumber: { oldPhoneNumber, newPhoneNumber },
});
export const email = { email: { emailAddress: 'a@example.com' } };

/** A run log of the answered entries, and of the unanswered ones apart. */
export function runLog(answered: Logged[], unanswered: Logged[] = []): RunLog {
  const log = new RunLog();
  for (const l of answered) log.append(l);
  for (const l of unanswered) log.appendUnanswered(l);
  return log;
}
