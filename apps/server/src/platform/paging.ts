/**
 * The total of a paged list. A page that is not full already tells it (offset + rows), so
 * the count query — a scan of every match — runs only when more rows may follow.
 */
export async function countPastPage(
  rowCount: number,
  page: { limit: number; offset: number },
  count: () => PromiseLike<{ total: number }[]>,
): Promise<number> {
  if (rowCount < page.limit && (rowCount > 0 || page.offset === 0)) return page.offset + rowCount;
  const [row] = await count();
  return row?.total ?? 0;
}
