import type { Exchange } from '../model';
import type { OperationKey } from '../operations';

export type BaseKey = 'baseUrl' | 'authBaseUrl' | 'transfersBaseUrl' | 'contactInfoBaseUrl';

export interface SendOptions {
  /** The documented operation this request exercises; 'raw' for a deliberately odd request. */
  operation: OperationKey | 'raw';
  /** For 'raw': the method and the path after the base URL. */
  method?: string;
  path?: string;
  base?: BaseKey;
  pathParams?: Record<string, string>;
  query?: Record<string, string | undefined>;
  headers?: Record<string, string | undefined>;
  /** An object is sent as JSON; a string is sent as it is. */
  body?: unknown;
  label?: string;
  /** Which environment variable the curl line names for a Bearer credential. */
  bearerEnv?: string;
  /** When every connection slot is busy, sent before requests of a lower priority (default 0). */
  priority?: number;
  /** A clean-up request: still sent after the target was declared dead (harness/http/breaker.ts). */
  cleanup?: boolean;
  /**
   * The configured test data whose values this request relies on being right (e.g.
   * "testData.customer.phoneNumber"): served, it proves them; refused while none of them was ever
   * served, the refusal may be the configuration's (harness/setup/proof.ts).
   */
  relies?: string[];
}

export interface ClientEvents {
  /** Called for every exchange, after redaction. */
  onExchange?(ex: Exchange): void;
}
