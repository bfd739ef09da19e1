import { baseUrlOf, type TargetConfig } from '../config';
import type { SafetySwitch } from '../model';
import { OPERATIONS, switchForRequest } from '../operations';
import type { BaseKey, SendOptions } from './send-options';
import { fillPath, joinUrl } from './transport';

export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Where a request goes: its method and URL (the configuration's declared paths applied), and the switch it needs. */
export interface Resolved {
  method: string;
  url: string;
  pathAfterBase: string;
  baseKey: BaseKey;
  needs?: SafetySwitch;
}

/** Resolve method and URL of a request, and the safety switch it needs. */
export function resolveRequest(config: TargetConfig, o: SendOptions): Resolved {
  const op = o.operation === 'raw' ? undefined : OPERATIONS[o.operation];
  const method = (o.method ?? op?.method ?? 'GET').toUpperCase();
  const base = baseUrlOf(config, o.base ?? op?.base ?? 'baseUrl');
  // A declared deviation (paths in the configuration): the operation is sent where this target serves it.
  const template = o.operation === 'raw' ? undefined : (config.paths?.[o.operation] ?? op!.path);
  const pathAfterBase = o.path ?? fillPath(template!, o.pathParams);
  const url = joinUrl(base, pathAfterBase, o.query);
  const baseKey = o.base ?? op?.base ?? 'baseUrl';
  // Last line of defence: the operation's own switch, else what method and path say, else any
  // change sent to the transfers or token base URL.
  const needs =
    (op && 'mutates' in op && (op.method === method || !SAFE_METHODS.has(method)) ? op.mutates : undefined) ??
    // A documented operation is judged by its path template (a vendor's id may contain any word);
    // anything else by the path it sends.
    switchForRequest(method, op && op.method === method && !o.path ? op.path : pathAfterBase) ??
    (SAFE_METHODS.has(method)
      ? undefined
      : baseKey === 'transfersBaseUrl'
        ? 'moneyMovement'
        : baseKey === 'authBaseUrl'
          ? 'tokenRevocation'
          : undefined);
  return { method, url, pathAfterBase, baseKey, needs };
}
