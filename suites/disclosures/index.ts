import type { Feature } from '../../harness/case';
import changeInstitutionDisclosure from './change-institution-disclosure';
import changeUserDisclosure from './change-user-disclosure';
import createInstitutionDisclosure from './create-institution-disclosure';
import createUserDisclosure from './create-user-disclosure';
import deleteUserDisclosure from './delete-user-disclosure';
import listInstitutionDisclosures from './list-institution-disclosures';
import listUserDisclosures from './list-user-disclosures';
import exploreUserDisclosures from '../explore/explore-user-disclosures';
import exploreInstitution from '../explore/explore-institution';

export const DISCLOSURES_FEATURES: Feature[] = [
  listInstitutionDisclosures,
  createInstitutionDisclosure,
  changeInstitutionDisclosure,
  listUserDisclosures,
  createUserDisclosure,
  changeUserDisclosure,
  deleteUserDisclosure,
  exploreUserDisclosures,
  exploreInstitution,
];
