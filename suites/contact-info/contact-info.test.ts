import { registerArea } from '../_register';
import { CONTACT_INFO_FEATURES } from '.';

registerArea(CONTACT_INFO_FEATURES);
