/** history-<store>-<start>-<end>.<extension>, the store's name reduced to safe characters. */
export function exportFileName(
  storeName: string,
  start: string,
  end: string,
  extension: 'pdf' | 'csv',
): string {
  const store =
    storeName
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'store';
  return `history-${store}-${start}-${end}.${extension}`;
}
