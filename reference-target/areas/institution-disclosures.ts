import { INITIAL_DISCLOSURES } from '../fixtures';
import { json, type Req, type Res } from '../http';
import type { InstitutionDisclosure } from '../state';
import type { DisclosuresKit, DisclosuresUser } from './disclosures-kit';
import { laterChangesLost, upsertedDisclosure } from './institution-quirks';

/* Operations 1–3, the institution's disclosures: their handlers, with the faults and variants each can show. */

const INSTITUTION_HEADERS = ['InstitutionId', 'InstitutionDisclosureName', 'InstitutionDisclosureStatus'];

export function institutionDisclosureHandlers(k: DisclosuresKit) {
  const lost = laterChangesLost(k.ctx);
  return {
    listDisclosures: k.guarded(() => listDisclosures(k), {}),
    createDisclosure: k.guarded((req, user) => createDisclosure(k, req, user), {
      headers: INSTITUTION_HEADERS,
      body: ['institutionId', 'institutionDisclosureName', 'institutionDisclosureStatus'],
    }),
    changeDisclosure: k.guarded((req, user) => changeDisclosure(k, lost, req, user), {
      headers: INSTITUTION_HEADERS,
      body: ['institutionDisclosureId', 'institutionId', 'institutionDisclosureName', 'institutionDisclosureStatus'],
    }),
  };
}

function listElement(k: DisclosuresKit, d: InstitutionDisclosure): Record<string, unknown> {
  const { ctx } = k;
  const e: Record<string, unknown> = { ...d };
  if (ctx.fault('op1-status-as-string') && typeof e.institutionDisclosureStatus === 'boolean')
    e.institutionDisclosureStatus = String(e.institutionDisclosureStatus);
  if (ctx.fault('op1-element-without-id')) delete e.institutionDisclosureId;
  if (ctx.fault('op1-unlisted-data-type') && e.institutionDisclosureDataType !== undefined)
    e.institutionDisclosureDataType = 'PDF';
  const [first, ...rest] = INITIAL_DISCLOSURES;
  const [beforeLast, last] = rest.slice(-2);
  if (ctx.fault('op1-id-reused') && e.institutionDisclosureId === last?.institutionDisclosureId)
    e.institutionDisclosureId = beforeLast?.institutionDisclosureId;
  if (ctx.fault('op1-data-not-url') && e.institutionDisclosureId === first?.institutionDisclosureId)
    e.institutionDisclosureData = 'You agree to receive the disclosures of the FI electronically.';
  if (ctx.fault('op1-extra-members-reordered'))
    return Object.fromEntries(Object.entries({ ...e, lastModified: '2026-01-02T03:04:05Z', version: 3 }).reverse());
  return e;
}

function listDisclosures(k: DisclosuresKit): Res {
  const { ctx } = k;
  if (ctx.fault('op1-html-body'))
    return { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>Disclosures</body></html>' };
  const items = [...k.state.disclosures.values()].map((d) => listElement(k, d));
  if (ctx.fault('op1-extra-members-reordered'))
    return json(200, { totalCount: items.length, institutionDisclosures: items.reverse() });
  return json(200, ctx.fault('op1-envelope-renamed') ? { disclosures: items } : { institutionDisclosures: items });
}

const parseStatus = (v: unknown): boolean | undefined =>
  v === true || v === 'true' ? true : v === false || v === 'false' ? false : undefined;

const FORBIDDEN_INSTITUTION = { error: 'forbidden', message: 'the token does not stand for this institution' };

function createDisclosure(k: DisclosuresKit, req: Req, user: DisclosuresUser): Res {
  const { ctx, either } = k;
  const b = (req.body ?? {}) as Record<string, unknown>;
  const name = either(b.institutionDisclosureName, req.headers['institutiondisclosurename']);
  const institutionId = either(b.institutionId, req.headers['institutionid']);
  const status = parseStatus(either(b.institutionDisclosureStatus, req.headers['institutiondisclosurestatus']));
  if (typeof name !== 'string' || typeof institutionId !== 'string' || status === undefined)
    return k.badRequest('institutionId, institutionDisclosureName and ' + 'institutionDisclosureStatus are required');
  if (institutionId !== user.institutionId && ctx.fault('op2-op3-institution-and-id-checked'))
    return json(403, FORBIDDEN_INSTITUTION);
  const reused = ctx.fault('op2-reuses-id') ? INITIAL_DISCLOSURES.at(-1)?.institutionDisclosureId : undefined;
  const id = reused ?? k.newId('disc');
  const d: InstitutionDisclosure = {
    institutionDisclosureId: id,
    institutionId,
    institutionDisclosureName: name,
    institutionDisclosureData: `https://fi.example/disclosures/${id}.pdf`,
    institutionDisclosureDataType: 'URL',
    institutionDisclosureStatus: status,
  };
  if (!ctx.fault('op2-not-persisted')) k.state.disclosures.set(id, d);
  const answer: Record<string, unknown> = {
    institutionDisclosureId: id,
    institutionDisclosureName: name,
    institutionDisclosureData: d.institutionDisclosureData,
    institutionDisclosureDataType: d.institutionDisclosureDataType,
  };
  if (ctx.fault('op2-response-without-data')) delete answer.institutionDisclosureData;
  if (ctx.fault('op2-response-name-cut')) answer.institutionDisclosureName = name.slice(0, 16);
  if (ctx.fault('op2-data-as-object')) answer.institutionDisclosureData = { url: d.institutionDisclosureData };
  if (ctx.fault('op2-answers-200-full-record'))
    return json(200, { ...answer, institutionId, institutionDisclosureStatus: status, createdAt: new Date() });
  return json(201, answer);
}

function changeDisclosure(k: DisclosuresKit, lost: (id: string) => boolean, req: Req, user: DisclosuresUser): Res {
  const { ctx, either } = k;
  const id = req.params.institutionDisclosureId!;
  const d = k.state.disclosures.get(id) ?? upsertedDisclosure(ctx, id, req.body, user.institutionId);
  if (!d) return k.notFound();
  const b = (req.body ?? {}) as Record<string, unknown>;
  if (ctx.fault('op2-op3-institution-and-id-checked')) {
    const institutionId = either(b.institutionId, req.headers['institutionid']);
    if (institutionId !== undefined && institutionId !== user.institutionId) return json(403, FORBIDDEN_INSTITUTION);
    if (b.institutionDisclosureId !== undefined && b.institutionDisclosureId !== id)
      return k.badRequest('institutionDisclosureId of the body is not the one of the path');
  }
  const name = either(b.institutionDisclosureName, req.headers['institutiondisclosurename']);
  const status = parseStatus(either(b.institutionDisclosureStatus, req.headers['institutiondisclosurestatus']));
  if (typeof name !== 'string' || status === undefined)
    return k.badRequest('institutionDisclosureName and ' + 'institutionDisclosureStatus are required');
  const statusBefore = d.institutionDisclosureStatus;
  const stored = ctx.fault('op3-not-stored') || lost(id) ? { ...d } : d;
  stored.institutionDisclosureName = name;
  stored.institutionDisclosureStatus = status;
  stored.institutionDisclosureData ??= `https://fi.example/disclosures/${id}.pdf`;
  stored.institutionDisclosureDataType ??= 'URL';
  const answer: Record<string, unknown> = {
    institutionDisclosureId: ctx.fault('op3-response-other-id') ? k.newId('disc') : id,
    institutionId: stored.institutionId,
    institutionDisclosureName: stored.institutionDisclosureName,
    institutionDisclosureData: stored.institutionDisclosureData,
    institutionDisclosureDataType: stored.institutionDisclosureDataType,
  };
  if (ctx.fault('op3-response-without-institution-id')) delete answer.institutionId;
  if (ctx.fault('op3-response-stale-status')) answer.institutionDisclosureStatus = statusBefore ?? !status;
  if (ctx.fault('op3-answers-202')) return json(202, { ...answer, institutionDisclosureStatus: status });
  return json(200, answer);
}
