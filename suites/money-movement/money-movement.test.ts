import { registerArea } from '../_register';
import { MONEY_MOVEMENT_FEATURES } from '.';

registerArea(MONEY_MOVEMENT_FEATURES);
