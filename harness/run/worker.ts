import { secretValues } from '../config';
import { DbsiClient } from '../http/client';
import { Redactor } from '../redact';
import type { RunSettings } from '../case';

let shared: { key: string; client: DbsiClient } | undefined;

/**
 * One client per worker (per area file), sharing its connection pool and limits across the cases.
 * The run's concurrency and rate limit are split evenly across the areas that run at once.
 */
export function workerClient(settings: RunSettings, parallelAreas = 1): DbsiClient {
  const key = JSON.stringify([settings.config, parallelAreas]);
  if (shared?.key === key) return shared.client;
  const http = settings.config.http;
  const client = new DbsiClient(settings.config, new Redactor(secretValues(settings.config)), {
    concurrency: Math.max(1, Math.floor(http.concurrency / parallelAreas)),
    rateLimitPerSecond: http.rateLimitPerSecond / parallelAreas,
  });
  shared = { key, client };
  return client;
}
