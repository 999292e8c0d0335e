// Fails when a locked package declares a Node.js range that excludes our runtime (Node 20.19):
// a dependency that needs Node 22 is not an option on this project's machines.
import { readFileSync } from 'node:fs';
import semver from 'semver';

const runtime = '20.19.0';
const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
const offenders = Object.entries(lock.packages)
  .filter(([path, meta]) => path && !meta.optional && meta.engines?.node)
  .filter(([, meta]) => !semver.satisfies(runtime, meta.engines.node))
  .map(
    ([path, meta]) => `${path.replace(/^.*node_modules\//, '')} requires node ${meta.engines.node}`,
  );
if (offenders.length) {
  console.error(`Packages that do not run on Node ${runtime}:\n  ${offenders.join('\n  ')}`);
  process.exit(1);
}
console.log(`engines: every locked package runs on Node ${runtime}`);
