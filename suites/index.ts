import type { Feature } from '../harness/case';
import type { Area } from '../harness/model';
import { qualifySharedTitles } from '../harness/titles';
import { AUTHENTICATION_FEATURES } from './authentication';
import { CONTACT_INFO_FEATURES } from './contact-info';
import { DISCLOSURES_FEATURES } from './disclosures';
import { MONEY_MOVEMENT_FEATURES } from './money-movement';

/**
 * Every feature of every area: what the vitest area files register and what the self-tests run.
 * A title shared by several operations is prefixed with the operation's name (harness/titles.ts).
 */
export const FEATURES_BY_AREA: Record<Area, Feature[]> = qualifySharedTitles({
  disclosures: DISCLOSURES_FEATURES,
  authentication: AUTHENTICATION_FEATURES,
  'money-movement': MONEY_MOVEMENT_FEATURES,
  'contact-info': CONTACT_INFO_FEATURES,
});
