import type { Feature } from '../../harness/case';
import updateContactInfo from './update-contact-info';
import exploreContactInfo from '../explore/explore-contact-info';

export const CONTACT_INFO_FEATURES: Feature[] = [updateContactInfo, exploreContactInfo];
