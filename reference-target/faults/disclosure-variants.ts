import { faultsOf, type FaultDef } from './types';

const f = faultsOf('disclosures');

/** The disclosures area's variants: choices the spec leaves open, after its faults in DISCLOSURES_FAULTS. */
export const DISCLOSURE_VARIANTS: FaultDef[] = [
  // Variants: choices the spec leaves open (helper D). Each breaks nothing, under --strict too.
  f(
    'disc-charset-header-case',
    'Variant, not a fault: every answer of operations 1–7 with a JSON body says ' +
      '"Content-Type: application/json;charset=UTF-8" (a 204 says Content-Type too), writes its header names ' +
      'capitalised and adds an X-Correlation-Id header. The spec says only "Bodies are JSON objects"; ' +
      'content-type parameters, header case and extra headers are not shown.',
    [],
    { variant: true, strict: true },
  ),
  f(
    'disc-refusals-other-shapes',
    'Variant, not a fault: the disclosures operations refuse with statuses and bodies of their own: no or ' +
      'invalid credentials 403 text/plain, a bad request 422 application/problem+json, an unknown record 404 ' +
      'with no body. "Errors of the disclosures operations: not shown."',
    [],
    { variant: true, strict: true },
  ),
  f(
    'op1-extra-members-reordered',
    'Variant, not a fault: list institution disclosures answers newest first, with members in another order, ' +
      'an extra envelope member (totalCount) and extra members in each element (lastModified, version). The ' +
      'spec names the members a response carries, not that it carries no others, nor an order.',
    [],
    { variant: true, strict: true },
  ),
  f(
    'op2-answers-200-full-record',
    'Variant, not a fault: create an institution disclosure answers 200 (not 201) with the whole record, ' +
      'institutionId, institutionDisclosureStatus and createdAt included. "The status code of the successful ' +
      'responses of ... create/change institution disclosure: not shown."',
    [],
    { variant: true, strict: true },
  ),
  f(
    'op3-answers-202',
    'Variant, not a fault: change an institution disclosure answers 202 with the changed record, ' +
      'institutionDisclosureStatus included. "The status code of the successful responses of ... ' +
      'create/change institution disclosure: not shown."',
    [],
    { variant: true, strict: true },
  ),
  f(
    'disc-uuid-and-numeric-ids',
    'Variant, not a fault: a created institution disclosure gets a UUID as institutionDisclosureId and an ' +
      'acceptance record a numeric-looking string ("100001") as institutionUserDisclosureId. The spec types ' +
      'both as "string", their shape not shown.',
    [],
    { variant: true, strict: true },
  ),
  f(
    'disc-headers-win',
    'Variant, not a fault: where a value comes both as a header and as a body member (operations 2, 3, 5, 6), ' +
      'the header wins. "Which of the two wins when they differ: not shown." The suite sends the same value in ' +
      'both, so nothing differs.',
    [],
    { variant: true, strict: true },
  ),
  f(
    'op4-newest-first-extra-members',
    'Variant, not a fault: list user disclosures answers newest first, with an extra envelope member ' +
      '(count) and extra members in each record (lastUpdated). The spec names the members, not that there ' +
      'are no others, nor an order.',
    [],
    { variant: true, strict: true },
  ),
  f(
    'op4-documented-members-only',
    'Variant, not a fault: list user disclosures gives each record only the four members operation 4 ' +
      'documents (institutionId, institutionUserId, institutionUserDisclosureStatus, institutionDisclosureName): ' +
      'no institutionUserDisclosureId, institutionDisclosureId or accountId.',
    [],
    { variant: true, strict: true },
  ),
  f(
    'op5-duplicate-conflict',
    'Variant, not a fault: create a user disclosure refuses (409) a second record for a disclosure and ' +
      'account that already have one. The state table moves only "(no record)" by POST; a POST on a record ' +
      'that exists is not shown. The suite never creates a record that exists, so nothing differs.',
    [],
    { variant: true, strict: true },
  ),
  f(
    'op2-op3-institution-and-id-checked',
    'Variant, not a fault: create and change an institution disclosure refuse (403) an institutionId other ' +
      "than the token's institution, and change refuses (400) a body whose institutionDisclosureId is not the " +
      "path's. Which checks these operations make, and their errors, are not shown. The suite sends the " +
      "configured institution and the path's id, so nothing differs.",
    [],
    { variant: true, strict: true },
  ),
  f(
    'op4-own-user-ids',
    'Variant, not a fault: list user disclosures gives each record the institutionUserId the target knows the ' +
      'user by ("user-" and digits), not the InstitutionConsumerId asked for. The spec names both "identifier of ' +
      'the user" / "of a consumer user"; that they are the same value is not shown.',
    [],
    { variant: true, strict: true },
  ),
  f(
    'disc-lenient-writes',
    'Variant, not a fault: change a user disclosure creates the record when none matches (an upsert), and ' +
      'delete answers 204 when none matches (an idempotent delete). What either does without a record is not ' +
      'shown (the state table moves "any" record). Only the explorer writes such records, and it accepts either ' +
      'answer: the lists judge what changed.',
    [],
    { variant: true, strict: true },
  ),
  f(
    'disc-unknown-ids-no-content',
    'Variant, not a fault: change and delete of a user disclosure by an institutionUserDisclosureId no record ' +
      'has answer 204 and change nothing. What they answer without a record is not shown ("Errors of the ' +
      'disclosures operations: not shown.").',
    [],
    { variant: true, strict: true },
  ),
  f(
    'disc-also-versionless',
    'Variant, not a fault: every disclosures operation is served at its documented path and also without the ' +
      'v1 segment (an older route kept). The spec gives the paths that serve them; that no other does is not ' +
      'said.',
    [],
    { variant: true, strict: true },
  ),
];
