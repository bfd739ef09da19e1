import type { FaultDef } from './types';

export const CONTACT_INFO_FAULTS: FaultDef[] = [];
