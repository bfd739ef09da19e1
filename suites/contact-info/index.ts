import type { Feature } from '../../harness/case';
import updateContactInfo from './update-contact-info';
import exploreContactInfo from '../explore/explore-contact-info';

// The explorer first: it takes customers whose number no test changed yet (its tour starts from the number as found).
export const CONTACT_INFO_FEATURES: Feature[] = [exploreContactInfo, updateContactInfo];
