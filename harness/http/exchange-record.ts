import { baseKeyOf, bodySecrets, type TargetConfig } from '../config';
import { nearVariantAuthorization } from '../credential-variants';
import { carriesForbiddenToken, nearVariantsCarried } from '../credentials';
import type { Exchange, RecordedResponse } from '../model';
import { curlLine, type Redactor } from '../redact';
import type { Pace } from './pacing';
import type { BaseKey, SendOptions } from './send-options';

/** What one request (harness/http/flight.ts) knows when it is recorded. */
export interface Recorded {
  seq: number;
  o: SendOptions;
  target: { method: string; url: string; baseKey: BaseKey };
  headers: Record<string, string>;
  body: string | undefined;
  redactedReq: Exchange['request'];
  credentials: string[];
  pacedTo: Pace | undefined;
  shedLoad: boolean;
  startedAt: Date;
  t0: number;
  sentAt: number | undefined;
  retries: string[];
  response?: RecordedResponse;
  error?: Exchange['error'];
  notSent?: boolean;
}

/** The redacted record of an exchange, as every report shows it (its curl line rebuilds secrets from variables). */
export function exchangeRecord(host: { config: TargetConfig; redactor: Redactor }, r: Recorded): Exchange {
  const { o, target, response } = r;
  const { method, url } = target;
  return {
    seq: r.seq,
    // contactInfoBaseUrl left at its default is baseUrl: proven (harness/setup/proof.ts) as one.
    base: baseKeyOf(host.config, target.baseKey),
    ...(o.operation !== 'raw' && !o.path && host.config.paths?.[o.operation]
      ? { declaredPath: `paths.${o.operation}` }
      : {}),
    ...(r.credentials.length ? { credentials: r.credentials } : {}),
    ...nearVariants(host.config, r),
    ...(carriesForbiddenToken(host.config, r.headers) ? { forbiddenToken: true } : {}),
    ...(r.notSent ? { notSent: r.notSent } : {}),
    ...(o.relies?.length ? { relies: o.relies } : {}),
    ...(r.pacedTo ? { pacedTo: r.pacedTo } : {}),
    ...(r.shedLoad ? { shedLoad: r.shedLoad } : {}),
    operation: o.operation,
    label: o.label,
    request: r.redactedReq,
    response: response && {
      ...response,
      headers: host.redactor.headers(response.headers),
      body: host.redactor.body(response.body) ?? '',
    },
    error: r.error,
    startedAt: r.startedAt.toISOString(),
    durationMs: Math.round((performance.now() - (r.sentAt ?? r.t0)) * 10) / 10,
    ...(r.sentAt !== undefined && r.sentAt - r.t0 >= 1 ? { waitedMs: Math.round((r.sentAt - r.t0) * 10) / 10 } : {}),
    retries: r.retries,
    curl: curlLine(
      { method, url, headers: r.headers, body: r.body },
      host.redactor,
      o.bearerEnv,
      host.config.credentials.contactInfoHeaders,
      bodySecrets(host.config),
      nearVariantAuthorization(host.config, r.headers),
    ),
  };
}

/** The configured credentials whose near variant the request carried (none where it carried them as configured). */
function nearVariants(config: TargetConfig, r: Recorded): { nearVariants?: string[] } {
  const near = r.credentials.length ? [] : nearVariantsCarried(config, r.headers);
  return near.length ? { nearVariants: near } : {};
}
