// Bundles the server into dist/main.js (our workspace packages inlined, npm packages
// left external) and copies the SQL migrations beside it.
import { cp, rm } from 'node:fs/promises';
import { build } from 'esbuild';

await rm('dist', { recursive: true, force: true });
await build({
  entryPoints: {
    main: 'src/main.ts',
    'create-admin': 'src/cli/create-admin.ts',
    seed: 'src/cli/seed.ts',
    // The audit PDF's worker thread (platform/pdf/audit.ts loads it beside main.js).
    'audit-worker': 'src/platform/pdf/audit-worker.ts',
    // The inspector pack's documents (modules/inspector-pack/pack-documents.ts loads it).
    'inspector-pack-worker': 'src/modules/inspector-pack/pack-worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-packages',
      setup(builder) {
        builder.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@mise/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
await cp('src/db/migrations', 'dist/migrations', { recursive: true });
console.log('server built: apps/server/dist');
