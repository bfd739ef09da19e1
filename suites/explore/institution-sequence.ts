import {
  changeInstitutionDisclosureRequest,
  commonHeaders,
  createInstitutionDisclosureRequest,
  disclosureName,
} from '../../data-builders/disclosures';
import type { CaseContext } from '../../harness/case';
import type { HttpResult } from '../../harness/http/client';
import type { Seen } from '../../harness/rules/exchange';
import { InstitutionDisclosureState, listedDisclosures } from '../../harness/state/institution-disclosures';
import { StopSequence, Unsteady, slotName, type Sender } from './sequence';
import { isEmbeddedTarget } from '../../harness/embedded-target';

/**
 * One explored sequence of institution disclosures (operations 1–3): the creates and changes the commands send,
 * each read back by operation 1's list, the log the rules judge (STATE-ID-CREATE, STATE-ID-CHANGE,
 * RES-DISCLOSURE-ID-UNIQUE …) and the numbered lines a report shows. A disclosure cannot be deleted through the
 * interface: every one created stays (its name carries the run prefix; the run lists it as created, cannot be
 * removed). A change by an id the target never issued is open (what it answers is not shown): the exchange is judged
 * as a capture would judge it (authority unknown) and the lists show whether another disclosure changed.
 */

/** A change's name: a new one (true), the same (false), the empty string, or a new one of LONG_NAME characters. */
export type Rename = boolean | 'empty' | 'long';

/** The length of the long names the explorer sends: past the 60 or 64 characters of a short column. */
export const LONG_NAME = 80;

/** A name of LONG_NAME characters, beginning as every name the run sends (its prefix). */
function longName(t: CaseContext): string {
  const head = disclosureName(t.faker, t.settings.runId);
  return `${head}-${t.faker.string.alphanumeric({ length: LONG_NAME - head.length - 1, casing: 'lower' })}`;
}

/** What a sequence's slot holds: the disclosure it created (id from the answer or the list), its last name. */
export interface Slot {
  id?: string;
  name: string;
}

export interface InstitutionGround {
  t: CaseContext;
  /** No command starts after it (epoch ms). */
  deadline: number;
}

export class InstitutionSequence {
  readonly log: Seen[] = [];
  readonly results: HttpResult[] = [];
  readonly lines: string[] = [];
  readonly state = new InstitutionDisclosureState();
  /** The disclosures created (slots A, B …), in the order created. */
  readonly slots: Slot[] = [];
  /** The served creates' exchanges: what the run lists as created, cannot be removed. */
  readonly created: HttpResult[] = [];
  /** The answers to changes by ids never issued (what the spec leaves open), as evidence. */
  readonly openAnswers: HttpResult[] = [];
  /** The transitions taken (state × operation × value). */
  readonly transitions = new Set<string>();
  /** The elements of the last 2xx list. */
  private lastListed: Record<string, any>[] = [];

  constructor(
    readonly ground: InstitutionGround,
    private readonly sender: Sender,
    private readonly fails: (log: readonly Seen[]) => boolean = () => false,
  ) {}

  inTime(): boolean {
    return Date.now() <= this.ground.deadline;
  }

  private async send(line: string, o: Parameters<Sender>[0], open = false): Promise<HttpResult> {
    const res = await this.sender(o);
    this.results.push(res);
    if (open) this.openAnswers.push(res);
    if (res.logged) {
      const s: Seen = { ...res.logged, keepsAuthorization: true, ...(open ? { authority: undefined } : {}) };
      this.log.push(s);
      this.state.add(s);
    }
    this.lines.push(`${this.lines.length + 1}. ${line} → ${res.status}`);
    if (res.status === 429 || res.status >= 500) throw new Unsteady(`answered ${res.status} (${line})`);
    return res;
  }

  /** Operation 1 (every write is read back by one); a list that shows a failure ends the sequence. */
  async list(why = 'read back'): Promise<void> {
    const { t } = this.ground;
    await this.send(`list institution disclosures (${why})`, {
      operation: 'listInstitutionDisclosures',
      headers: commonHeaders(t.faker, t.config),
      label: `explore: list institution disclosures (${why})`,
    });
    for (const s of this.slots) s.id ??= this.state.idOf(s.name);
    const last = this.log.at(-1);
    this.lastListed = (last && listedDisclosures(last)) ?? this.lastListed;
    if (this.fails(this.log)) throw new StopSequence();
  }

  /**
   * Another disclosure the last list shows, with its name and status, whose id slot k's id begins with (disc-01 of
   * disc-0123): undefined where none is listed. Only the embedded target's are written (see changeOwner).
   */
  prefixOwner(k: number): { id: string; name: string; status: boolean } | undefined {
    const id = this.slots[k]?.id;
    if (id === undefined || !isEmbeddedTarget(this.ground.t.config)) return undefined;
    const e = this.lastListed.find(
      (d) =>
        typeof d.institutionDisclosureId === 'string' &&
        d.institutionDisclosureId !== id &&
        id.startsWith(d.institutionDisclosureId) &&
        typeof d.institutionDisclosureName === 'string' &&
        typeof d.institutionDisclosureStatus === 'boolean',
    );
    return (
      e && { id: e.institutionDisclosureId, name: e.institutionDisclosureName, status: e.institutionDisclosureStatus }
    );
  }

  /**
   * Operation 3 on the disclosure whose id slot k's id begins with, carrying the name and status the list shows (a
   * write that changes nothing): the next list shows slot k as it was (STATE-ID-CHANGE-ONLY-NAMED), unless the
   * target matched ids by prefix. Not the run's disclosure: the embedded reference target's only, and judged as open
   * (a capture's view), so that a refusal of it is accepted.
   */
  async changeOwner(k: number): Promise<void> {
    const { t } = this.ground;
    const owner = this.prefixOwner(k)!;
    this.transitions.add('listed × change (its own values) × an id another id begins with');
    const d = {
      institutionDisclosureId: owner.id,
      institutionId: t.config.testData.institutionId,
      institutionDisclosureName: owner.name,
      institutionDisclosureStatus: owner.status,
    };
    await this.send(
      `change ${JSON.stringify(owner.id)} (${slotName(k)}'s id begins with it) to the values listed`,
      {
        operation: 'changeInstitutionDisclosure',
        pathParams: { institutionDisclosureId: owner.id },
        ...changeInstitutionDisclosureRequest(t.faker, t.config, d),
        label: `explore: change the institution disclosure whose id begins ${slotName(k)}'s`,
      },
      true,
    );
    await this.list();
  }

  /** The status slot k's disclosure has as the last list showed it ("unknown" where none did). */
  private from(k: number): string {
    const s = this.slots[k];
    if (!s) return 'absent';
    const st = s.id !== undefined ? this.state.record(s.id)?.status : undefined;
    return st === undefined ? 'unknown' : String(st);
  }

  /**
   * Operation 2: a new disclosure (the next slot) with `status`; `long`: with a name of LONG_NAME characters (size
   * limits: not shown, so the create is judged as open and a refusal accepted; a 2xx is read back as any).
   */
  async create(status: boolean, long = false): Promise<void> {
    const { t } = this.ground;
    this.transitions.add(`absent × create × ${status}`);
    const name = long ? longName(t) : disclosureName(t.faker, t.settings.runId);
    const k = this.slots.length;
    this.slots.push({ name });
    const named = long ? `, a name of ${LONG_NAME} characters` : '';
    const res = await this.send(
      `create ${slotName(k)} with status ${status}${named}`,
      {
        operation: 'createInstitutionDisclosure',
        ...createInstitutionDisclosureRequest(t.faker, t.config, name, status),
        label: `explore: create institution disclosure ${slotName(k)}`,
      },
      long,
    );
    if (res.status >= 200 && res.status < 300) {
      this.created.push(res);
      const id = (res.json as { institutionDisclosureId?: unknown } | undefined)?.institutionDisclosureId;
      if (typeof id === 'string') this.slots[k]!.id = id;
    }
    await this.list();
  }

  /**
   * Operation 3 on slot k: to `status`, with a new name (`rename`), the empty one (`'empty'`: a string; what a target
   * answers to it is not shown, so the change is judged as open and a refusal accepted) or the one it has (a write
   * that may change nothing); or (`how` given) by an id the target never issued, carrying slot k's values.
   */
  async change(k: number, status: boolean, rename: Rename, how?: { id: string; variant: string }): Promise<void> {
    const { t } = this.ground;
    const slot = this.slots[k]!;
    const id = how?.id ?? slot.id!;
    // A long name is a new name: the transition is the same.
    const naming = rename === 'empty' ? ' (empty name)' : rename ? ' (new name)' : ' (same name)';
    this.transitions.add(how ? `any × change by a ${how.variant} id` : `${this.from(k)} × change${naming} × ${status}`);
    const name = how
      ? slot.name
      : rename === 'empty'
        ? ''
        : rename === 'long'
          ? longName(t)
          : rename
            ? disclosureName(t.faker, t.settings.runId)
            : slot.name;
    const d = {
      institutionDisclosureId: id,
      institutionId: t.config.testData.institutionId,
      institutionDisclosureName: name,
      institutionDisclosureStatus: status,
    };
    const what = how ? `an id near ${slotName(k)}'s (${how.variant}) ${JSON.stringify(id)}` : slotName(k);
    const shown =
      rename === 'empty'
        ? ', the empty name'
        : rename === 'long'
          ? `, a new name of ${LONG_NAME} characters`
          : rename
            ? ', a new name'
            : ', the same name';
    const res = await this.send(
      `change ${what} to status ${status}${how ? '' : shown}`,
      {
        operation: 'changeInstitutionDisclosure',
        pathParams: { institutionDisclosureId: id },
        ...changeInstitutionDisclosureRequest(t.faker, t.config, d),
        label: `explore: change institution disclosure ${how ? `by a ${how.variant} id` : slotName(k)}`,
      },
      how !== undefined || rename === 'empty' || rename === 'long',
    );
    if (!how && res.status >= 200 && res.status < 300) slot.name = name;
    await this.list();
  }
}
