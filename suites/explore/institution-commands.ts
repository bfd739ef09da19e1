import fc from 'fast-check';
import { variantId, type Variant } from './commands';
import type { InstitutionSequence, Rename } from './institution-sequence';
import { slotName } from './sequence';

/**
 * The explorer's commands on institution disclosures (operations 2–3): create with each status the spec shows
 * ("true or false"), change a disclosure the sequence created to each status with a new name or the same one,
 * again and again, change by an id the target never issued (a near variant of a real one, or a new one), and change
 * a listed disclosure whose id a created one's begins with, to its own values (the embedded target only). The
 * model is the sequence (its slots and the fold of its lists); the rules judge the whole log.
 */

export interface InstitutionModel {
  seq: InstitutionSequence;
}
type Cmd = fc.AsyncCommand<InstitutionModel, InstitutionSequence>;

/** Disclosures a sequence creates, at most (none can be deleted: each stays on the target). */
export const INSTITUTION_SLOTS = 2;

/** A create with each status, with a name of the usual length or (`long`) a long one. */
export class CreateDisclosure implements Cmd {
  constructor(
    readonly status: boolean,
    readonly long = false,
  ) {}
  check = (m: InstitutionModel) => m.seq.inTime() && m.seq.slots.length < INSTITUTION_SLOTS;
  run = (_m: InstitutionModel, r: InstitutionSequence) => r.create(this.status, this.long);
  toString = () => `create ${this.status}${this.long ? ' long name' : ''}`;
}

export class ChangeDisclosure implements Cmd {
  constructor(
    readonly k: number,
    readonly status: boolean,
    readonly rename: Rename,
  ) {}
  check = (m: InstitutionModel) => m.seq.inTime() && m.seq.slots[this.k]?.id !== undefined;
  // The empty name is given a new one at once (after its read-back): no two disclosures, of this sequence or an
  // earlier one, share it (a list without ids is read by name).
  run = async (_m: InstitutionModel, r: InstitutionSequence) => {
    await r.change(this.k, this.status, this.rename);
    if (this.rename === 'empty') await r.change(this.k, this.status, true);
  };
  toString = () =>
    `change ${slotName(this.k)} ${this.status}` +
    (this.rename === 'empty' ? ' emptied' : this.rename === 'long' ? ' renamed long' : this.rename ? ' renamed' : '');
}

/** A change by an id the target never issued, near slot k's (a suffix, a prefix, one character less) or new. */
export class ChangeById implements Cmd {
  constructor(
    readonly k: number,
    readonly variant: Variant,
    readonly status: boolean,
  ) {}
  check = (m: InstitutionModel) => m.seq.inTime() && m.seq.slots[this.k]?.id !== undefined;
  run = (m: InstitutionModel, r: InstitutionSequence) => {
    const real = this.variant === 'never-issued' ? undefined : m.seq.slots[this.k]!.id;
    const fresh = `dbsi-${r.ground.t.settings.runId}-${r.lines.length + 1}`;
    const id = variantId(real, this.variant, fresh, m.seq.state.issuedIds());
    return r.change(this.k, this.status, false, { id, variant: this.variant });
  };
  toString = () => `change by ${this.variant} id of ${slotName(this.k)} ${this.status}`;
}

/** A change of the listed disclosure whose id slot k's begins with, to its own listed values (embedded target). */
export class ChangePrefixOwner implements Cmd {
  constructor(readonly k: number) {}
  check = (m: InstitutionModel) => m.seq.inTime() && m.seq.prefixOwner(this.k) !== undefined;
  run = (_m: InstitutionModel, r: InstitutionSequence) => r.changeOwner(this.k);
  toString = () => `change the disclosure whose id begins ${slotName(this.k)}'s`;
}

const VARIANTS: Variant[] = ['suffix', 'prefix', 'shorter', 'never-issued'];

/** Every command; changes are listed more than once so that sequences reach the third and fourth change. */
export function institutionCommandArbitraries(): fc.Arbitrary<Cmd>[] {
  const k = fc.nat({ max: INSTITUTION_SLOTS - 1 });
  const status = fc.boolean();
  const change = fc.tuple(k, status, fc.boolean()).map(([a, s, n]): Cmd => new ChangeDisclosure(a, s, n));
  const emptied = fc.tuple(k, status).map(([a, s]): Cmd => new ChangeDisclosure(a, s, 'empty'));
  const renamed = fc.constantFrom<Rename>(true, false, 'long');
  return [
    fc.tuple(status, fc.boolean()).map(([s, l]): Cmd => new CreateDisclosure(s, l)),
    change,
    change,
    fc.tuple(k, status, renamed).map(([a, s, n]): Cmd => new ChangeDisclosure(a, s, n)),
    fc.tuple(k, fc.constantFrom(...VARIANTS), status).map(([a, v, s]): Cmd => new ChangeById(a, v, s)),
    k.map((a): Cmd => new ChangePrefixOwner(a)),
    emptied,
  ];
}

/**
 * Tours, run before the random sequences: each status from each status, with a new name and the same one, up to
 * the fourth change of one disclosure, changes by ids near the real ones, and long names, so a short budget reaches
 * them all.
 */
export function institutionTours(): Cmd[][] {
  const A = 0;
  const B = 1;
  return [
    [
      new CreateDisclosure(true),
      new ChangeDisclosure(A, true, false),
      new ChangeDisclosure(A, false, true),
      new ChangeDisclosure(A, false, false),
      new ChangeDisclosure(A, true, true),
      new ChangeDisclosure(A, true, true),
    ],
    [
      new CreateDisclosure(false),
      new ChangeDisclosure(A, false, true),
      new ChangeDisclosure(A, true, false),
      new ChangeDisclosure(A, true, true),
      new ChangeDisclosure(A, false, false),
      new ChangeDisclosure(A, false, 'empty'),
    ],
    [
      new CreateDisclosure(true),
      new CreateDisclosure(false),
      new ChangeById(A, 'suffix', false),
      new ChangeById(B, 'prefix', true),
      new ChangeById(A, 'shorter', false),
      new ChangeById(B, 'never-issued', true),
      new ChangeDisclosure(B, true, false),
      new ChangePrefixOwner(A),
      new ChangePrefixOwner(B),
    ],
    // Long names (80 characters): created with each status, changed to a long name and back to a short one.
    [
      new CreateDisclosure(false, true),
      new CreateDisclosure(true, true),
      new ChangeDisclosure(A, true, 'long'),
      new ChangeDisclosure(B, false, true),
      new ChangeDisclosure(B, true, 'long'),
    ],
  ];
}
