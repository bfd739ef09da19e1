import type { FaultDef } from './types';

export const MONEY_MOVEMENT_FAULTS: FaultDef[] = [];
