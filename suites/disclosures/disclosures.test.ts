import { registerArea } from '../_register';
import { DISCLOSURES_FEATURES } from '.';

registerArea(DISCLOSURES_FEATURES);
