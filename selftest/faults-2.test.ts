import { faultTable } from './_faults-table';

/** Shard 2 of the fault table (selftest/_faults-table.ts): every named fault caught by the check for its rule. */
faultTable(1, 3);
