import { stopMailCatcher } from './smtp';

export default async function globalTeardown(): Promise<void> {
  const server = globalThis.miseMailCatcher;
  globalThis.miseMailCatcher = undefined;
  if (server) await stopMailCatcher(server);
}
