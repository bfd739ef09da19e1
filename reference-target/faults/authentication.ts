import type { FaultDef } from './types';

export const AUTHENTICATION_FAULTS: FaultDef[] = [];
