import { registerArea } from '../_register';
import { AUTHENTICATION_FEATURES } from '.';

registerArea(AUTHENTICATION_FEATURES);
