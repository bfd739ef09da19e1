import { faultTable } from './_faults-table';

/** Shard 3 of the fault table (selftest/_faults-table.ts): every named fault caught by the check for its rule. */
faultTable(2, 3);
