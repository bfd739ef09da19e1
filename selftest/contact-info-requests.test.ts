import { Faker, en } from '@faker-js/faker';
import { describe, expect, test } from 'vitest';
import {
  contactUpdateBody,
  otherPhoneNumber,
  testEmailAddress,
  testPostalAddress,
} from '../data-builders/contact-info';
import { fillPath, joinUrl } from '../harness/http/client';
import { withLock } from '../harness/lock';
import { OPERATIONS } from '../harness/operations';
import { validate } from '../harness/schemas';
import { referenceConfig } from '../reference-target/config';

const cfg = referenceConfig({
  urls: {
    baseUrl: 'http://127.0.0.1:1/prefix/dbsi',
    authBaseUrl: 'http://127.0.0.1:1/i',
    transfersBaseUrl: 'http://127.0.0.1:1/b',
  },
});
const faker = () => {
  const f = new Faker({ locale: [en] });
  f.seed(7);
  return f;
};

describe('contact update requests the suite builds', () => {
  test('match schemas/contact-update-request.schema.json: each object alone and all three together', () => {
    const f = faker();
    const phone = { oldPhoneNumber: '5550100', newPhoneNumber: otherPhoneNumber(f, '5550100') };
    for (const u of [
      { phone },
      { emailAddress: testEmailAddress(f, 'rtst') },
      { postalAddress: testPostalAddress(f, 'rtst') },
      { phone, emailAddress: testEmailAddress(f, 'rtst'), postalAddress: testPostalAddress(f, 'rtst') },
    ]) {
      expect(validate('contact-update-request', contactUpdateBody(cfg.testData.customer, u))).toEqual([]);
    }
  });

  test(
    'the schema refuses an unlisted userIdType (the set is closed) ' + 'and a phone update without oldPhoneNumber',
    () => {
      expect(validate('contact-update-request', { userIdType: 'EMAIL' })).not.toEqual([]);
      expect(
        validate('contact-update-request', { userIdType: 'LOGIN_ID', phoneNumber: { newPhoneNumber: '1' } }).join(),
      ).toMatch(/oldPhoneNumber/);
    },
  );

  test('other phone numbers keep the shape of the one on record and avoid the numbers given', () => {
    const f = faker();
    for (const like of ['5550100', '+1 (555) 010-0100', '07700 900123']) {
      const seen = [like];
      for (let i = 0; i < 20; i++) {
        const n = otherPhoneNumber(f, like, seen);
        expect(n.replace(/\d/g, '9')).toBe(like.replace(/\d/g, '9'));
        expect(seen).not.toContain(n);
        seen.push(n);
      }
    }
  });

  test(
    'the path keeps its literal ":contact-info" suffix, no version segment, ' +
      'and the base URL prefix; the id is percent-encoded',
    () => {
      const path = fillPath(OPERATIONS.updateContactInfo.path, { customerId: 'cust/7 01' });
      expect(path).toBe('/customers/cust%2F7%2001:contact-info');
      expect(joinUrl(cfg.baseUrl, path)).toBe('http://127.0.0.1:1/prefix/dbsi/customers/cust%2F7%2001:contact-info');
    },
  );
});

describe('withLock', () => {
  test('runs holders of one key one after the other, other keys concurrently', async () => {
    const log: string[] = [];
    const hold = (key: string, name: string, ms: number) =>
      withLock(key, async () => {
        log.push(`${name}+`);
        await new Promise((r) => setTimeout(r, ms));
        log.push(`${name}-`);
      });
    await Promise.all([hold('a', 'a1', 30), hold('a', 'a2', 5), hold('b', 'b1', 5)]);
    expect(log.indexOf('a1-')).toBeLessThan(log.indexOf('a2+'));
    expect(log.indexOf('b1+')).toBeLessThan(log.indexOf('a1-'));
  });

  test('releases the key when the holder throws', async () => {
    await expect(
      withLock('c', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(withLock('c', async () => 'next')).resolves.toBe('next');
  });
});
