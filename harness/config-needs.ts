import { areaSends, withoutHint } from './area-switches';
import { ConfigError, URL_KEYS, isLoopback, type TargetConfig } from './config-model';
import type { Area } from './model';
import { OPERATIONS, type OperationKey } from './operations';

/* What a configuration must hold for the areas selected, and what a person is warned of before the run. */

/** What a person must be told before the run starts (printed on stderr, even with --quiet). */
export function configWarnings(cfg: TargetConfig): string[] {
  const out: string[] = [];
  for (const [key, path] of Object.entries(cfg.paths ?? {})) {
    const op = OPERATIONS[key as OperationKey];
    const what = `${op.number}. ${op.name}`;
    out.push(`declared deviation: paths.${key}: ${what} is sent to ${path} instead of the spec's ${op.path}`);
  }
  if (cfg.contactInfoBaseUrl !== undefined && cfg.contactInfoBaseUrl !== cfg.baseUrl)
    out.push(`declared deviation: contactInfoBaseUrl: 10. Update contact information is sent under its own base URL`);
  if (!cfg.http.tls.rejectUnauthorized)
    out.push(
      'TLS certificate verification is OFF for this target ' +
        '(http.tls.rejectUnauthorized = false): answers may come from anyone',
    );
  for (const key of URL_KEYS) {
    const url = cfg[key];
    if (url === undefined || (key === 'contactInfoBaseUrl' && url === cfg.baseUrl)) continue;
    if (new URL(url).protocol === 'http:' && !isLoopback(url)) {
      const why = 'allowed by http.allowInsecureHttp';
      out.push(`"${key}" is plain http:// to a non-loopback host (${why}): credentials travel unencrypted`);
    }
  }
  return out;
}

/** What each area needs before it can run; a missing item is a configuration error naming the key. */
const AREA_NEEDS: Record<Area, Array<[path: string, env?: string]>> = {
  disclosures: [
    ['credentials.bearerToken', 'DBSI_BEARER_TOKEN'],
    ['testData.institutionId'],
    ['testData.institutionUserId'],
    ['testData.accountId'],
  ],
  authentication: [
    ['credentials.revocationClientId', 'DBSI_REVOCATION_CLIENT_ID'],
    ['credentials.revocationClientSecret', 'DBSI_REVOCATION_CLIENT_SECRET'],
    ['testData.revocation.institutionId'],
  ],
  'money-movement': [
    ['credentials.transfersToken', 'DBSI_TRANSFERS_TOKEN'],
    ['testData.transfer.fromAccountId'],
    ['testData.transfer.toAccountId'],
  ],
  'contact-info': [['testData.customer.customerId'], ['testData.customer.phoneNumber']],
};

function getPath(obj: unknown, path: string): unknown {
  return path.split('.').reduce<any>((o, k) => (o == null ? undefined : o[k]), obj);
}

/**
 * Every item a selected area needs is set, else a ConfigError names each missing one, and how to run without
 * that area. An area whose every operation is behind a switch that is off needs nothing. With `credentials: false`
 * (--dry-run, which sends nothing to the target) a missing credential is no error: the credentials missing are
 * returned, so that the plan can say a run needs them; every other need is still checked.
 */
export function checkAreaNeeds(cfg: TargetConfig, areas: readonly Area[], o: { credentials?: boolean } = {}): string[] {
  const missing: Array<{ item: string; credential: boolean; area: Area }> = [];
  const tested = areas.filter((a) => areaSends(cfg, a));
  for (const area of tested) {
    for (const [path, env] of AREA_NEEDS[area]) {
      const v = getPath(cfg, path);
      const item = `"${path}"${env ? ` (or environment variable ${env})` : ''}, needed by area ${area}`;
      if (v === undefined || v === '') missing.push({ item, credential: path.startsWith('credentials.'), area });
    }
  }
  if (contactInfoAuthMissing(cfg, tested)) {
    const item =
      '"credentials.contactInfoHeaders" or "credentials.bearerToken" (or DBSI_CONTACT_INFO_HEADERS / ' +
      'DBSI_BEARER_TOKEN), needed by area contact-info';
    missing.push({ item, credential: true, area: 'contact-info' });
  }
  const refused = missing.filter((m) => o.credentials !== false || !m.credential);
  if (refused.length) {
    const hint = withoutHint(cfg, areas, [...new Set(refused.map((m) => m.area))]);
    throw new ConfigError(`missing configuration: ${refused.map((m) => m.item).join('; ')}${hint}`);
  }
  return missing.map((m) => m.item);
}

function contactInfoAuthMissing(cfg: TargetConfig, areas: readonly Area[]): boolean {
  return areas.includes('contact-info') && !cfg.credentials.contactInfoHeaders && !cfg.credentials.bearerToken;
}
