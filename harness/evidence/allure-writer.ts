import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import AllureVitestReporter, { type AllureVitestReporterConfig } from 'allure-vitest/reporter';
import type { Vitest } from 'vitest/node';
import { CASE_LABEL } from './allure-labels';
import { failureHeading, isFailureLike } from './failure-heading';

/**
 * Allure's own file writer writes every result and attachment synchronously, through a temporary
 * file, fsync and rename: about 1 ms of blocked main thread per file, during the run, in the process
 * that also serves the embedded reference target. This writer hands each file to the thread pool
 * instead, and the run awaits them all (flush) before anything reads the results.
 */
export class AsyncResultsWriter {
  private readonly pending = new Set<Promise<void>>();
  private failure: Error | undefined;

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  private write(name: string, content: string | Buffer): void {
    const p = writeFile(join(this.dir, name), content)
      .catch((e: Error) => void (this.failure ??= e))
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  /** Test results wait for flush: the run's final verdicts (harness/setup/proof.ts) may revise them. */
  private readonly results: AllureResult[] = [];

  writeResult(result: { uuid: string }): void {
    this.results.push(result as AllureResult);
  }
  writeGroup(result: { uuid: string }): void {
    this.write(`${result.uuid}-container.json`, JSON.stringify(result));
  }
  writeAttachment(name: string, content: Buffer): void {
    this.write(name, content);
  }
  writeAttachmentFromPath(name: string, from: string): void {
    const p = import('node:fs/promises')
      .then((fs) => fs.copyFile(from, join(this.dir, name)))
      .catch((e: Error) => void (this.failure ??= e))
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }
  writeEnvironmentInfo(info: Record<string, string | undefined>): void {
    const esc = (s: string) => s.replace(/[\\:= ]/g, (c) => `\\${c}`);
    this.write(
      'environment.properties',
      Object.entries(info)
        .filter((e): e is [string, string] => e[1] !== undefined)
        .map(([k, v]) => `${esc(k)}=${v}`)
        .join('\n'),
    );
  }
  writeCategoriesDefinitions(categories: unknown): void {
    this.write('categories.json', JSON.stringify(categories));
  }
  writeGlobals(name: string, info: unknown): void {
    this.write(name, JSON.stringify(info));
  }

  async flush(revise: (r: AllureResult) => AllureResult = (r) => r): Promise<void> {
    for (const r of this.results.splice(0)) {
      const out = revise(r);
      this.write(`${out.uuid}-result.json`, JSON.stringify(out));
    }
    while (this.pending.size) await Promise.all([...this.pending]);
    if (this.failure) throw new Error(`writing the Allure results failed: ${this.failure.message}`);
  }
}

/** The members of an Allure test result the run may revise. */
export interface AllureResult {
  uuid: string;
  name?: string;
  status?: string;
  statusDetails?: { message?: string; trace?: string };
  labels?: Array<{ name: string; value: string }>;
}

/**
 * A result given its case's final verdict: a case the run's setup proofs made "could not test" is
 * broken, with the reason, like every other could-not-test case; a skipped, not applicable or could
 * not test result always shows its reason (Allure's statusDetails.message), so no such test reads as
 * a bare grey or yellow mark.
 */
export function reviseResult(
  r: AllureResult,
  byId: ReadonlyMap<string, { outcome: string; reason?: string; operation?: string; title?: string }>,
): AllureResult {
  const id = r.labels?.find((l) => l.name === CASE_LABEL)?.value;
  const c = id === undefined ? undefined : byId.get(id);
  if (!c) return r;
  // A failure's heading names its operation (failure-heading.ts).
  const named =
    isFailureLike(c.outcome) && c.operation && c.title
      ? { ...r, name: failureHeading({ operation: c.operation, title: c.title }) }
      : r;
  // A waived failure (--waivers) stays failed, never passed; its message says WAIVED (category "Waived deviations").
  if (c.outcome === 'waived')
    return { ...named, status: 'failed', statusDetails: { ...r.statusDetails, message: c.reason } };
  if (c.outcome === 'could-not-test' && r.status !== 'broken') {
    return {
      ...named,
      status: 'broken',
      statusDetails: { ...r.statusDetails, message: c.reason ?? 'could not test', trace: undefined },
    };
  }
  const withReason = c.outcome === 'not-applicable' || c.outcome === 'not-allowed' || c.outcome === 'could-not-test';
  if (withReason && c.reason && !r.statusDetails?.message)
    return { ...named, statusDetails: { ...r.statusDetails, message: c.reason } };
  return named;
}

/** allure-vitest's reporter, with its results written by AsyncResultsWriter. */
export class AllureReporter extends AllureVitestReporter {
  private readonly writer: AsyncResultsWriter;

  constructor(config: AllureVitestReporterConfig & { resultsDir: string }) {
    super(config);
    this.writer = new AsyncResultsWriter(config.resultsDir);
  }

  override onInit(vitest: Vitest): void {
    super.onInit(vitest);
    const runtime = (
      this as unknown as {
        allureReporterRuntime?: { writer: unknown; writeCategoriesDefinitions(): void; writeEnvironmentInfo(): void };
      }
    ).allureReporterRuntime;
    if (runtime) runtime.writer = this.writer;
  }

  /** Every result and attachment is on disk when this resolves; `revise` gives each result its final verdict. */
  flush(revise?: (r: AllureResult) => AllureResult): Promise<void> {
    return this.writer.flush(revise);
  }
}

/**
 * Empty the results folder of the previous run without blocking: it is renamed at once and removed
 * in the thread pool while the run starts. Await the returned promise before the process ends.
 */
export function clearResults(dir: string): Promise<void> {
  let removal: Promise<void> = Promise.resolve();
  if (existsSync(dir)) {
    const old = `${dir}.old-${process.pid}-${Date.now()}`;
    renameSync(dir, old);
    removal = rm(old, { recursive: true, force: true }).catch(() => undefined);
  }
  mkdirSync(dir, { recursive: true });
  return removal;
}
