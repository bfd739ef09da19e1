import { describe, expect, test } from 'vitest';
import { baseUrlOf, ConfigError, resolveConfig } from '../harness/config';
import { editedExample } from './_example';
import { explain, runAreas } from './_reference';

/**
 * contactInfoBaseUrl (optional, default baseUrl): the contact-info operation is sent there, the other
 * operations are not; the key takes the URL checks of the other base URLs.
 */
const example = editedExample() as object;

describe('contactInfoBaseUrl', () => {
  test('defaults to baseUrl, trailing slash dropped, and is checked like every base URL', () => {
    const plain = resolveConfig(example, {});
    expect(plain.contactInfoBaseUrl).toBeUndefined();
    expect(baseUrlOf(plain, 'contactInfoBaseUrl')).toBe(plain.baseUrl);
    const own = resolveConfig({ ...example, contactInfoBaseUrl: 'https://gateway.example/contact/' }, {});
    expect(own.contactInfoBaseUrl).toBe('https://gateway.example/contact');
    const refused = (url: string) => () => resolveConfig({ ...example, contactInfoBaseUrl: url }, {});
    expect(refused('https://user:pw@gateway.example/x')).toThrow(/"contactInfoBaseUrl" carries credentials/);
    expect(refused('http://gateway.example/x')).toThrow(/"contactInfoBaseUrl" is plain http:\/\//);
    expect(refused('ftp://gateway.example/x')).toThrow(ConfigError);
  });

  test('reaches the reference target: baseUrl elsewhere, every contact-info request goes there', async () => {
    let contactInfoBaseUrl = '';
    const { cases } = await runAreas({
      areas: ['contact-info'],
      configure: (cfg) => {
        contactInfoBaseUrl = cfg.baseUrl;
        // The reference target serves contact info under its baseUrl only: baseUrl now points nowhere.
        return { ...cfg, baseUrl: cfg.baseUrl.replace(/\/dbsi$/, '/nowhere'), contactInfoBaseUrl };
      },
    });
    expect(contactInfoBaseUrl).toMatch(/\/dbsi$/);
    expect(explain(cases), 'every contact-info test passes (or is not applicable), none could not test').toBe('');
    const urls = cases.flatMap((c) => c.exchanges.map((e) => e.request.url));
    expect(urls.length).toBeGreaterThan(0);
    for (const u of urls) expect(u.startsWith(`${contactInfoBaseUrl}/customers/`), u).toBe(true);
    // Tagged with its own key, so that a setup finding would name contactInfoBaseUrl.
    expect(new Set(cases.flatMap((c) => c.exchanges.map((e) => e.base)))).toEqual(new Set(['contactInfoBaseUrl']));
  });

  test('a wrong contactInfoBaseUrl is could not test naming contactInfoBaseUrl, never a failure', async () => {
    const { cases, failed } = await runAreas({
      areas: ['contact-info'],
      configure: (cfg) => ({ ...cfg, contactInfoBaseUrl: cfg.baseUrl.replace(/\/dbsi$/, '/wrong-prefix') }),
    });
    expect([...failed]).toEqual([]);
    const keys = new Set(cases.filter((c) => c.outcome === 'could-not-test').map((c) => c.setup?.key));
    expect([...keys]).toContain('contactInfoBaseUrl');
  });
});
