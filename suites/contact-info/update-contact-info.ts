import { feature } from '../../harness/case';
import { CREDENTIALS } from './credentials';
import { LOGIN_ID } from './login-id';
import { OLD_PHONE_NUMBER_DEPTH } from './old-phone-number-depth';
import { STORED_COUNTRY_CODE } from './stored-country-code';
import { OLD_PHONE_NUMBER_RULE } from './old-phone-number-rule';
import { STORED_PHONE_NUMBER } from './stored-phone-number';
import { SUCCESS_RESPONSES } from './success-responses';

/** Operation 10: PUT {baseUrl}/customers/{customerId}:contact-info. */
export default feature('contact-info', 'updateContactInfo', [
  ...SUCCESS_RESPONSES,
  ...STORED_PHONE_NUMBER,
  ...STORED_COUNTRY_CODE,
  ...OLD_PHONE_NUMBER_RULE,
  ...OLD_PHONE_NUMBER_DEPTH,
  ...LOGIN_ID,
  ...CREDENTIALS,
]);
