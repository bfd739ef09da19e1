import { describe, expect, test } from 'vitest';
import { isJsonMediaType, json_media_type } from '../harness/checks';
import type { HttpResult } from '../harness/http/client';

/** CONV-JSON-MEDIA-TYPE ("Bodies are JSON objects"): the label of a JSON body, every reasonable spelling of it. */
const answer = (headers: Record<string, string>) => ({ status: 200, headers, text: '{}', json: {} }) as HttpResult;

describe('json_media_type', () => {
  test.each([
    'application/json',
    'application/json;charset=UTF-8',
    'Application/JSON; charset=utf-8',
    'application/problem+json',
    'application/vnd.bank.transfer.v1+json',
  ])('accepts %s', (value) => expect(isJsonMediaType(value)).toBe(true));

  test.each(['text/plain', 'text/html; charset=utf-8', 'application/xml', 'application/jsonp', 'text/json+x', ''])(
    'refuses %s',
    (value) => expect(isJsonMediaType(value)).toBe(false),
  );

  test('judges the header whatever the case of its name; no Content-Type is not judged', () => {
    expect(json_media_type(answer({ 'content-type': 'application/json' })).outcome).toBe('passed');
    expect(json_media_type(answer({ 'Content-Type': 'text/plain' })).outcome).toBe('failed');
    expect(json_media_type(answer({ 'Content-Type': 'text/plain' })).received).toBe('Content-Type: text/plain');
    expect(json_media_type(answer({})).outcome).toBe('not-applicable');
  });
});
