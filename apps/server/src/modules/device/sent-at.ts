/**
 * The tablet's clock when it sent a request (`x-sent-at`, ISO): with the time a record reports,
 * it places a record made offline on the server's clock (madeAtOnServerClock in
 * packages/shared tasks/rules). Anything else is ignored.
 */
export function sentAtOf(header: string | string[] | undefined): Date | null {
  if (typeof header !== 'string' || header.length > 40) return null;
  const sentAt = new Date(header);
  return Number.isNaN(sentAt.getTime()) ? null : sentAt;
}
