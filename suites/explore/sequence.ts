import {
  changeUserDisclosureRequest,
  createUserDisclosureRequest,
  deleteUserDisclosureRequest,
  listUserDisclosuresRequest,
  type DisclosureRef,
} from '../../data-builders/disclosures';
import type { CaseContext } from '../../harness/case';
import type { HttpResult, SendOptions } from '../../harness/http/client';
import type { Seen } from '../../harness/rules/exchange';
import { deletedSinceCreated, UserDisclosureState } from '../../harness/state/user-disclosures';
import { BESIDE_SEVERAL, heldRecords, SEVERAL_RECORDS } from '../../harness/state/coverage/user-disclosures';
import { transition, type From } from './transitions';

/** Deletes of one record at the end of a sequence, at most: the first and two more where a list still shows it. */
const CLEAN_UP_ATTEMPTS = 3;

/**
 * One explored sequence against the target: the requests the commands send (each write followed by the
 * list that reads it back), the log the rules judge, the numbered lines a report shows, and the state
 * fold (harness/state/user-disclosures.ts) the commands choose from.
 */

export type Status = 'ACCEPTED' | 'NOT_ACCEPTED';
export type Form = 'collection' | 'by-id';

/** What a sequence works on: the user, its records' disclosures (held by the case), a disclosure no record has. */
export interface Ground {
  t: CaseContext;
  user: string;
  slots: DisclosureRef[];
  /** The slots of listed disclosures come first; from this index on they are made up (a create of them is open). */
  listed?: number;
  ghost: DisclosureRef;
  /** No command starts after it (epoch ms): a sequence already running goes to its clean-up. */
  deadline: number;
}

/** How the sequence sends: the explorer's client (nothing recorded) or the case's (the replay, recorded). */
export type Sender = (o: SendOptions) => Promise<HttpResult>;

export const slotName = (k: number): string => String.fromCharCode(65 + k);

export class Sequence {
  readonly log: Seen[] = [];
  readonly results: HttpResult[] = [];
  /** The numbered lines: operation, form and values, and the answer. */
  readonly lines: string[] = [];
  readonly state: UserDisclosureState;
  /** The answers to writes of records the log did not show (what the spec leaves open). */
  readonly openAnswers: HttpResult[] = [];
  /** The transitions the commands took (state × operation × value, transitions.ts). */
  readonly transitions = new Set<string>();

  constructor(
    readonly ground: Ground,
    private readonly sender: Sender,
    /** Whether the log so far already fails: a read-back that shows it ends the sequence (StopSequence). */
    private readonly fails: (log: readonly Seen[]) => boolean = () => false,
  ) {
    this.state = new UserDisclosureState(ground.user);
  }

  /**
   * `open`: a write of a record the log does not show (absent, unknown, an id never issued): what the target
   * answers is not shown, so the exchange is judged as a capture would judge it (authority unknown: only a 2xx
   * is held to the request rule), and the lists judge what changed.
   */
  private async send(line: string, o: SendOptions, open = false): Promise<HttpResult> {
    const { t } = this.ground;
    // Every request goes through the run's client, so the run's log sees each write as it leaves (in flight).
    const res = await this.sender({ ...o, ...relied(t.config.testData, o.operation) });
    this.results.push(res);
    if (open) this.openAnswers.push(res);
    if (res.logged) {
      const s: Seen = { ...res.logged, keepsAuthorization: true, ...(open ? { authority: undefined } : {}) };
      this.log.push(s);
      this.state.add(s);
    }
    this.lines.push(`${this.lines.length + 1}. ${line} → ${res.status}`);
    // A target that throttles or fails (429, 5xx) leaves what happened unknown: the exploration stops there.
    if (res.status === 429 || res.status >= 500) throw new Unsteady(`answered ${res.status} (${line})`);
    return res;
  }

  /** Operation 4: the user's records (every write is read back by one). */
  async list(why = 'read back'): Promise<HttpResult> {
    const { t } = this.ground;
    const res = await this.send(`list the user's records (${why})`, {
      operation: 'listUserDisclosures',
      ...listUserDisclosuresRequest(t.faker, t.config),
      label: `explore: list (${why})`,
    });
    // The commands after the read that shows a failure would only lengthen the sequence a report shows.
    if (!this.cleaning && this.fails(this.log)) throw new StopSequence();
    return res;
  }

  /**
   * Operation 4 for another consumer (testData.otherInstitutionUserId, else one of the run's own), between the user's
   * writes: it shows none of the user's records (OP4-OTHER-CONSUMER, judged over the run's log, as the hand-written
   * case's list; a list that shows the records the user created only after they were created shows here).
   */
  async listOther(): Promise<void> {
    const { t } = this.ground;
    const other = t.config.testData.otherInstitutionUserId ?? `dbsi-${t.settings.runId}-nobody`;
    const req = listUserDisclosuresRequest(t.faker, t.config);
    await this.send(
      `list the records of another consumer (${other})`,
      {
        operation: 'listUserDisclosures',
        ...req,
        query: { ...req.query, InstitutionConsumerId: other },
        label: 'explore: list another consumer',
      },
      // Whether a target answers a list of another consumer (or refuses it) is not settled: judged as a capture would.
      true,
    );
  }

  private cleaning = false;

  /** Whether a command may still start (commands.ts reads it in their preconditions). */
  inTime(): boolean {
    return Date.now() <= this.ground.deadline;
  }

  /** The state of slot k as the fold shows it: what a transition starts from. */
  private from(k: number): From {
    const name = this.ground.slots[k]!.institutionDisclosureName;
    const has = this.state.has(this.ground.user, name);
    if (has === undefined) return 'unknown';
    // A record a 2xx delete removed is "deleted", not "absent", until created again (what the sequence's log shows).
    if (!has) return deletedSinceCreated(this.log, name) ? 'deleted' : 'absent';
    return this.state.record(this.ground.user, name)?.status === 'NOT_ACCEPTED' ? 'NOT_ACCEPTED' : 'ACCEPTED';
  }

  async create(k: number, status: Status): Promise<void> {
    const { t, slots } = this.ground;
    const from = this.from(k);
    const beside =
      (from === 'absent' || from === 'deleted') && heldRecords(this.state, this.ground.user) >= SEVERAL_RECORDS;
    this.transitions.add(transition(beside ? BESIDE_SEVERAL : from, 'create', status));
    const req = createUserDisclosureRequest(t.faker, t.config, slots[k]!, status);
    const madeUp = k >= (this.ground.listed ?? slots.length);
    await this.send(
      `create ${slotName(k)} with ${status}${madeUp ? ' (a disclosure no list shows)' : ''}`,
      { operation: 'createUserDisclosure', ...req, label: `explore: create ${slotName(k)}` },
      madeUp,
    );
    await this.list();
  }

  /**
   * A change or delete of slot k, or (`id` given with `ghost`) of an id no record of the sequence has; `query`: with
   * every query parameter the spec names for it (statedQuery), where the configuration supplies none too.
   */
  async write(
    kind: 'change' | 'delete',
    k: number,
    form: Form,
    status: Status,
    how?: { id: string; what: string; variant: string },
    query = false,
  ) {
    const { t, slots, ghost } = this.ground;
    const d = how ? ghost : slots[k]!;
    this.transitions.add(
      how
        ? transition('any', `${kind} by a ${how.variant} id`)
        : transition(this.from(k), `${kind} (${form})`, kind === 'change' ? status : undefined),
    );
    const id =
      how?.id ?? (form === 'by-id' ? this.state.record(this.ground.user, d.institutionDisclosureName)?.id : undefined);
    const current = this.state.record(this.ground.user, d.institutionDisclosureName)?.status ?? status;
    const req =
      kind === 'change'
        ? changeUserDisclosureRequest(t.faker, t.config, d, status)
        : deleteUserDisclosureRequest(t.faker, t.config, d, current);
    const byId = form === 'by-id' && id !== undefined;
    const stated = query ? statedQuery(t.config.testData, this.ground.user, kind) : undefined;
    if (stated) req.query = { ...req.query, ...stated.query };
    const open =
      how !== undefined ||
      stated?.madeUp === true ||
      this.state.has(this.ground.user, d.institutionDisclosureName) !== true;
    const op = `${kind}UserDisclosure${byId ? 'ById' : ''}` as const;
    const target = how ? how.what : slotName(k);
    const value = kind === 'change' ? ` to ${status}` : '';
    const form_ = byId ? `/{institutionUserDisclosureId} form, id ${JSON.stringify(id)}` : 'collection form';
    const shown = stated ? `${form_}, ${Object.keys(stated.query).join(' and ')} sent` : form_;
    await this.send(
      `${kind} ${target}${value} (${shown})`,
      {
        operation: op,
        ...req,
        ...(byId ? { pathParams: { institutionUserDisclosureId: id } } : {}),
        label: `explore: ${kind} ${target}${open && !how ? ' (no record listed)' : ''}`,
      },
      open,
    );
    await this.list();
  }

  /** The end of every sequence: delete every record of it a list shows (collection form), each read back. */
  async cleanUp(): Promise<void> {
    const { user, slots } = this.ground;
    this.cleaning = true;
    for (let attempt = 1; attempt <= CLEAN_UP_ATTEMPTS; attempt++)
      if (
        await this.steadily(async () => (await this.list('before the clean-up'), true), attempt === CLEAN_UP_ATTEMPTS)
      )
        break;
    for (const [k, d] of slots.entries()) {
      if (this.state.has(user, d.institutionDisclosureName) === false) continue;
      const status = (this.state.record(user, d.institutionDisclosureName)?.status ?? 'ACCEPTED') as Status;
      const req = deleteUserDisclosureRequest(this.ground.t.faker, this.ground.t.config, d, status);
      // A delete the target did not process (a 503 it sheds load with) is sent again: a record of a disclosure of
      // the run's own has no other clean-up (flaky-target self-test).
      for (let attempt = 1; attempt <= CLEAN_UP_ATTEMPTS; attempt++) {
        const done = await this.steadily(async () => {
          await this.send(`clean-up: delete ${slotName(k)} (collection form)`, {
            operation: 'deleteUserDisclosure',
            ...req,
            label: `explore: clean-up ${slotName(k)}`,
          });
          // Each clean-up is read back too: the last list proves the sequence left nothing.
          await this.list(`after the clean-up of ${slotName(k)}`);
          return this.state.has(user, d.institutionDisclosureName) === false;
        }, attempt === CLEAN_UP_ATTEMPTS);
        if (done) break;
      }
    }
  }

  /** `step`, where a 429 or 5xx (Unsteady) is no reason to stop the clean-up, except on its last try (`last`). */
  private async steadily<T>(step: () => Promise<T>, last = true): Promise<T | undefined> {
    try {
      return await step();
    } catch (e) {
      if (last || !(e instanceof Unsteady)) throw e;
      return undefined;
    }
  }
}

/**
 * The query parameters the spec names for a change (InstitutionCustomerId) or a delete (and AccountType), each with
 * its configured value, else a value of the sequence's own: the user's identifier ("the identifier of the user the
 * recipient is associated with") and an account type (values: not shown). A value made up is the sequence's choice,
 * not the operator's: what the target answers to it is open (a refusal is accepted), and a 2xx is read back as any.
 */
export const MADE_UP_ACCOUNT_TYPE = 'CHECKING';
function statedQuery(
  td: Ground['t']['config']['testData'],
  user: string,
  kind: 'change' | 'delete',
): { query: Record<string, string>; madeUp: boolean } {
  const query: Record<string, string> = { InstitutionCustomerId: td.institutionCustomerId ?? user };
  if (kind === 'delete') query.AccountType = td.accountType ?? MADE_UP_ACCOUNT_TYPE;
  const madeUp = td.institutionCustomerId === undefined || (kind === 'delete' && td.accountType === undefined);
  return { query, madeUp };
}

/** Thrown by a read-back that shows the sequence fails: the commands after it do not run. */
export class StopSequence extends Error {
  override name = 'StopSequence';
}

/** The target throttled or failed: the sequence cannot be judged, and the exploration stops. */
export class Unsteady extends Error {
  override name = 'Unsteady';
}

/**
 * The configured test data a request relies on being right (harness/setup/proof.ts re-grades a refusal of it),
 * the values a target may not know first: InstitutionCustomerId, AccountType, then AccountId.
 */
function relied(td: Ground['t']['config']['testData'], operation: SendOptions['operation']): { relies?: string[] } {
  const change = operation.startsWith('change');
  const del = operation.startsWith('delete');
  const keys = [
    ...((change || del) && td.institutionCustomerId !== undefined ? ['testData.institutionCustomerId'] : []),
    ...(del && td.accountType !== undefined ? ['testData.accountType'] : []),
    ...(operation === 'createUserDisclosure' || del ? ['testData.accountId'] : []),
  ];
  return keys.length ? { relies: keys } : {};
}
