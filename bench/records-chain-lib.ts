/**
 * What the records-chain benchmark bundles (see records-chain.ts): the server's task result
 * write, unchanged — bundled twice, once as it is and once with the chain append stubbed out,
 * to measure what the append adds to a write.
 */
export { submitTaskResult } from '../apps/server/src/modules/tasks/task-results.service';
