import type { DisclosureRef } from '../../data-builders/disclosures';
import type { HttpResult } from '../../harness/http/client';
import type { Exchange } from '../../harness/model';
import type { UserRecord } from './_user-list';
import type { Form } from './_user-records';

/** The pieces of the records' life (_record-lifecycle.ts): what a step acted on, its outcome, the end of the life. */

export type LifecycleStep = 'create' | `change:${Form}` | `delete:${Form}`;

export interface Acted {
  /** The disclosure of the record the request acted on. */
  d: DisclosureRef;
  /** The answer to the request under test. */
  res: HttpResult;
  /** The list of the user's records that preceded it (a change or delete): with `res` and `after`, the step's log. */
  before?: { res: HttpResult; records: UserRecord[] };
  /** The list of the user's records that followed it. */
  after: { res: HttpResult; records: UserRecord[] };
  /** Where a refusal may also come from a configured value: what a failure's text says about it (_test-data.ts). */
  setupNote?: string;
}

export interface Settled {
  acted: Acted;
  exchanges: Exchange[];
}

export interface Deferred {
  promise: Promise<Settled>;
  resolve: (s: Settled) => void;
  reject: (e: unknown) => void;
}

export function deferred(): Deferred {
  let resolve!: (s: Settled) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<Settled>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => undefined); // a step no selected case judges
  return { promise, resolve, reject };
}

export interface Life {
  /** The title of the case that runs the life. */
  runner: string;
  steps: Map<LifecycleStep, Deferred>;
  done: Promise<void>;
  end: EndOfLife;
  /** Settled once the life holds its disclosures (or could not take any). */
  took: Promise<void>;
  /** The disclosure the life frees before its end (B, once its last list shows it gone), else undefined at its end. */
  freed: Promise<DisclosureRef | undefined>;
}

/**
 * After its last step, A is no longer judged: before the runner's clean-up deletes it, the cases that
 * only send a request a conformant target refuses (a change or delete without valid credentials),
 * and asked before the last step, send theirs on it. A faulty target that serves one changes A, which
 * no verdict reads any more; the clean-up then looks before it deletes.
 */
export interface EndOfLife {
  /** Still taking readers. */
  open: boolean;
  /** Readers that asked and have not yet sent their request. */
  readers: number;
  /** The record offered, once the last step is done (undefined: none to offer). */
  offered: Promise<{ d: DisclosureRef; record: UserRecord } | undefined>;
  offer: (o: { d: DisclosureRef; record: UserRecord } | undefined) => void;
  /** Resolved when the last reader has sent its request. */
  idle: () => Promise<void>;
  wake?: () => void;
}

export function endOfLife(): EndOfLife {
  let offer!: EndOfLife['offer'];
  const offered = new Promise<{ d: DisclosureRef; record: UserRecord } | undefined>((resolve) => (offer = resolve));
  const end: EndOfLife = {
    open: true,
    readers: 0,
    offered,
    offer,
    idle: () => (end.readers === 0 ? Promise.resolve() : new Promise<void>((resolve) => (end.wake = resolve))),
  };
  return end;
}
