import { AUTHENTICATION_FAULTS } from './authentication';
import { CONTACT_INFO_FAULTS } from './contact-info';
import { DISCLOSURES_FAULTS } from './disclosures';
import { FREEDOM_VARIANTS } from './freedom-variants';
import { FREEDOM2_VARIANTS } from './freedom2-variants';
import { HOLDOUT_CONTACT_FAULTS } from './holdout-contact';
import { HOLDOUT_DISCLOSURES_FAULTS } from './holdout-disclosures';
import { HOLDOUT_OTHER_FAULTS } from './holdout-others';
import { HOLDOUT2_DISCLOSURES_FAULTS } from './holdout2-disclosures';
import { HOLDOUT2_OTHER_FAULTS } from './holdout2-others';
import { HOLDOUT3_DISCLOSURES_FAULTS } from './holdout3-disclosures';
import { HOLDOUT3_OTHER_FAULTS } from './holdout3-others';
import { HOLDOUT4_DISCLOSURES_FAULTS } from './holdout4-disclosures';
import { HOLDOUT4_OTHER_FAULTS } from './holdout4-others';
import { HOLDOUT5_DISCLOSURES_FAULTS } from './holdout5-disclosures';
import { HOLDOUT5_OTHER_FAULTS } from './holdout5-others';
import { INSTITUTION_EXPLORED_FAULTS } from './institution-explored';
import { MONEY_MOVEMENT_FAULTS } from './money-movement';
import type { FaultDef } from './types';

export type { FaultDef } from './types';

export const FAULTS: FaultDef[] = [
  ...DISCLOSURES_FAULTS,
  ...INSTITUTION_EXPLORED_FAULTS,
  ...AUTHENTICATION_FAULTS,
  ...MONEY_MOVEMENT_FAULTS,
  ...CONTACT_INFO_FAULTS,
  ...HOLDOUT_DISCLOSURES_FAULTS,
  ...HOLDOUT_OTHER_FAULTS,
  ...HOLDOUT_CONTACT_FAULTS,
  ...HOLDOUT2_DISCLOSURES_FAULTS,
  ...HOLDOUT2_OTHER_FAULTS,
  ...HOLDOUT3_DISCLOSURES_FAULTS,
  ...HOLDOUT3_OTHER_FAULTS,
  ...HOLDOUT4_DISCLOSURES_FAULTS,
  ...HOLDOUT4_OTHER_FAULTS,
  ...HOLDOUT5_DISCLOSURES_FAULTS,
  ...HOLDOUT5_OTHER_FAULTS,
  ...FREEDOM_VARIANTS,
  ...FREEDOM2_VARIANTS,
];

export function checkFaultNames(names: readonly string[]): void {
  const known = new Set(FAULTS.map((f) => f.name));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length) throw new Error(`unknown fault(s): ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
}
