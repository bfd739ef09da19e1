import { feature } from '../../harness/case';
import { json_object_body, present, reflects_request, schema_conformance, shown_value, success_status, value_equals } from '../../harness/checks';
import { createInstitutionDisclosure, findDisclosure, listedStatus, listInstitutionDisclosures } from './_institution-disclosures';
import { authenticationCases } from './_authentication';
import { SHOWN } from '../../harness/shown-values';

/**
 * Operation 2: POST /db-disclosures/v1/institution-disclosures (behind allow.institutionDisclosureWrites).
 * What it creates cannot be deleted through the interface: names carry the run prefix.
 */
export default feature('disclosures', 'createInstitutionDisclosure', [
  {
    title: 'creates a disclosure with status true: a 2xx with the documented members, then listed with the name and status sent',
    requirements: ['OP2-REQUEST', 'CONV-JSON-BODIES', 'OP2-RESPONSE', 'OP2-RESPONSE-REFLECTS-REQUEST', 'STATE-ID-CREATE', 'RES-DISCLOSURE-DATATYPE-VALUES'],
    async run(t) {
      const { name, res } = await t.step('create', () => createInstitutionDisclosure(t, true));
      t.verify('OP2-REQUEST', success_status(res));
      t.verify('CONV-JSON-BODIES', json_object_body(res));
      t.verify('OP2-RESPONSE', schema_conformance(res, 'institution-disclosure-create-response'));
      const body = res.json as Record<string, unknown>;
      t.verify('OP2-RESPONSE-REFLECTS-REQUEST', reflects_request(body, { institutionDisclosureName: name, institutionId: t.config.testData.institutionId, institutionDisclosureStatus: true }, 'the create response', res));
      const id = body.institutionDisclosureId as string;
      await t.parameter('institutionDisclosureId', id);
      const { res: listed, items } = await t.step('list', () => listInstitutionDisclosures(t));
      const found = findDisclosure(items, id, name, t.config.testData.institutionId);
      t.verify('STATE-ID-CREATE', present(found, `the created disclosure (id ${id}, name ${name}) in the list`, listed));
      t.verify('STATE-ID-CREATE', value_equals(found!.institutionDisclosureName, name, 'the listed institutionDisclosureName', listed));
      t.verify('STATE-ID-CREATE', listedStatus(found!, true, listed));
      t.verify('RES-DISCLOSURE-DATATYPE-VALUES', shown_value(body.institutionDisclosureDataType, SHOWN.institutionDisclosureDataType, 'institutionDisclosureDataType of the create response', res));
    },
  },
  ...authenticationCases(async (t, credentials) => (await createInstitutionDisclosure(t, false, credentials)).res),
]);
