import fc from 'fast-check';
import { slotName, type Form, type Sequence, type Status } from './sequence';

/**
 * The explorer's commands on the users' acceptance records (operations 5–7), for fast-check's model-based
 * runs. The model is the sequence's state fold (what the log shows: which records are listed, their ids and
 * statuses); a command's precondition reads it, its run sends the request and the list that reads it back.
 * What the target should answer is never decided here: the rules of harness/rules/ judge the whole log.
 */

export interface Model {
  seq: Sequence;
}
type Cmd = fc.AsyncCommand<Model, Sequence>;

/** "Values shown: ACCEPTED, NOT_ACCEPTED". */
export const STATUSES: Status[] = ['ACCEPTED', 'NOT_ACCEPTED'];
const FORMS: Form[] = ['collection', 'by-id'];

/** Ids a target never issued: near variants of a real one (a suffix, a prefix, one character less), or new. */
export const VARIANTS = ['suffix', 'prefix', 'shorter', 'never-issued'] as const;
export type Variant = (typeof VARIANTS)[number];

const nameOf = (m: Model, k: number) => m.seq.ground.slots[k]!.institutionDisclosureName;
const userOf = (m: Model) => m.seq.ground.user;

/** Create slot k with a status: only where the last list shows no record of it (a POST on a record: not shown). */
export class Create implements Cmd {
  constructor(
    readonly k: number,
    readonly status: Status,
  ) {}
  check = (m: Model) => m.seq.inTime() && m.seq.state.has(userOf(m), nameOf(m, this.k)) === false;
  run = (_m: Model, r: Sequence) => r.create(this.k, this.status);
  toString = () => `create ${slotName(this.k)} ${this.status}`;
}

/**
 * Change (to a status) or delete slot k, in a form; the /{id} form needs the id the last list gave the record (an
 * id of a deleted record is never sent: the rules read an id by the record a list showed it for). `query`: with the
 * query parameters the spec names for it (InstitutionCustomerId; AccountType too for a delete), configured or not.
 */
export class Write implements Cmd {
  constructor(
    readonly kind: 'change' | 'delete',
    readonly k: number,
    readonly form: Form,
    readonly status: Status,
    readonly query = false,
  ) {}
  check = (m: Model) =>
    m.seq.inTime() &&
    (this.form === 'collection' || m.seq.state.record(userOf(m), nameOf(m, this.k))?.id !== undefined);
  run = (_m: Model, r: Sequence) => r.write(this.kind, this.k, this.form, this.status, undefined, this.query);
  toString = () =>
    `${this.kind} ${slotName(this.k)}${this.kind === 'change' ? ` ${this.status}` : ''} ${this.form}` +
    (this.query ? ' with query' : '');
}

/** A near variant of `base`. One character less of a number may be another user's record: a suffix instead. */
function near(base: string, variant: Variant, fresh: string): string {
  if (variant === 'suffix') return `${base}x`;
  if (variant === 'prefix') return `x${base}`;
  if (variant === 'shorter' && base.length > 1) return /^\d+$/.test(base) ? `${base}x` : base.slice(0, -1);
  return fresh;
}

/** The id a target never issued: a near variant of slot k's last id (or a fresh one), not one any list showed. */
export function variantId(real: string | undefined, variant: Variant, fresh: string, issued: ReadonlySet<string>) {
  let id = near(real ?? fresh, variant, fresh);
  for (let n = 0; issued.has(id) && n < 10; n++) id = `${id}z`;
  return id;
}

/**
 * A change or delete by an id the target never issued (a near variant of a real one): the body names a
 * disclosure no record has, so whatever the target answers (404, a 2xx that does nothing), the lists show
 * whether any record changed (STATE-UD-CHANGE-ONLY-NAMED, STATE-UD-DELETE-ONLY-NAMED).
 */
export class ById implements Cmd {
  constructor(
    readonly kind: 'change' | 'delete',
    readonly k: number,
    readonly variant: Variant,
    readonly status: Status,
  ) {}
  check = (m: Model) =>
    m.seq.inTime() &&
    (this.variant === 'never-issued' || m.seq.state.lastId(userOf(m), nameOf(m, this.k)) !== undefined);
  async run(m: Model, r: Sequence) {
    const real = this.variant === 'never-issued' ? undefined : m.seq.state.lastId(userOf(m), nameOf(m, this.k));
    const fresh = `dbsi-${r.ground.t.settings.runId}-${r.lines.length + 1}`;
    const id = variantId(real, this.variant, fresh, m.seq.state.issuedIds(userOf(m)));
    const what = real ? `an id near ${slotName(this.k)}'s (${this.variant})` : 'an id never issued';
    await r.write(this.kind, this.k, 'by-id', this.status, { id, what, variant: this.variant });
  }
  toString = () => `${this.kind} by ${this.variant} id of ${slotName(this.k)}`;
}

/** A read alone (the writes read themselves back). */
class List implements Cmd {
  check = (m: Model) => m.seq.inTime();
  run = async (_m: Model, r: Sequence) => void (await r.list('a read'));
  toString = () => 'list';
}

/** A list of another consumer, between the user's writes (Sequence.listOther). */
export class ListOther implements Cmd {
  check = (m: Model) => m.seq.inTime();
  run = (_m: Model, r: Sequence) => r.listOther();
  toString = () => 'list another consumer';
}

/**
 * Every command, with every value the spec shows, on `slots` records. fast-check picks among the arbitraries
 * evenly: creates, changes and writes by ids never issued are listed more than once, so that sequences reach records
 * that exist (and changes of them, and near variants of their ids) more often than writes of absent ones.
 */
export function commandArbitraries(slots: number): fc.Arbitrary<Cmd>[] {
  const k = fc.nat({ max: slots - 1 });
  const status = fc.constantFrom(...STATUSES);
  const kind = fc.constantFrom<'change' | 'delete'>('change', 'delete');
  const create = fc.tuple(k, status).map(([a, s]): Cmd => new Create(a, s));
  const query = fc.boolean();
  const change = fc
    .tuple(k, fc.constantFrom(...FORMS), status, query)
    .map(([a, f, s, q]): Cmd => new Write('change', a, f, s, q));
  const byId = fc.tuple(kind, k, fc.constantFrom(...VARIANTS), status).map(([w, a, v, s]): Cmd => new ById(w, a, v, s));
  return [
    create,
    create,
    change,
    change,
    change,
    fc.tuple(k, fc.constantFrom(...FORMS), query).map(([a, f, q]): Cmd => new Write('delete', a, f, 'ACCEPTED', q)),
    byId,
    byId,
    fc.constant<Cmd>(new List()),
    fc.constant<Cmd>(new ListOther()),
  ];
}
