/** The one call bench/probes.ts uses of pg-copy-streams (it ships no types). */
declare module 'pg-copy-streams' {
  import type { Writable } from 'node:stream';
  export function from(text: string): Writable & { submittable: true };
}
