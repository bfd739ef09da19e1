import type { Feature } from '../../harness/case';
import listInstitutionDisclosures from './list-institution-disclosures';

export const DISCLOSURES_FEATURES: Feature[] = [listInstitutionDisclosures];
