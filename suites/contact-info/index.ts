import type { Feature } from '../../harness/case';
import updateContactInfo from './update-contact-info';

export const CONTACT_INFO_FEATURES: Feature[] = [updateContactInfo];
