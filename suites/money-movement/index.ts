import type { Feature } from '../../harness/case';
import createTransfer from './create-transfer';
import transferTypeViolations from './type-violations';
import exploreTransfers from '../explore/explore-transfers';

export const MONEY_MOVEMENT_FEATURES: Feature[] = [createTransfer, transferTypeViolations, exploreTransfers];
