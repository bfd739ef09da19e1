import type { Feature } from '../../harness/case';
import createTransfer from './create-transfer';

export const MONEY_MOVEMENT_FEATURES: Feature[] = [createTransfer];
