/** An ILIKE pattern finding `search` anywhere, its wildcards (% _) and backslashes taken literally. */
export const likePattern = (search: string) =>
  `%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
