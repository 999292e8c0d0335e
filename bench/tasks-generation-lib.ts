/**
 * What the task-generation benchmark runs, bundled by esbuild before it runs (see
 * tasks-generation.ts): the server's own generation code, unchanged.
 */
export { openDatabase } from '../apps/server/src/db/client';
export { runMigrations } from '../apps/server/src/db/migrate';
export {
  findDueStores,
  generateDueStores,
  generateItems,
  generateStoreDay,
} from '../apps/server/src/modules/tasks/generation.service';
