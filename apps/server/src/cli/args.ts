/** Reads `--name value` pairs from the command line. */
export function readArgs(argv: string[]): Record<string, string> {
  const args: Record<string, string> = {};
  for (let index = 0; index < argv.length; index++) {
    const key = argv[index]!;
    if (key.startsWith('--')) {
      args[key.slice(2)] = argv[index + 1] ?? '';
      index++;
    }
  }
  return args;
}
