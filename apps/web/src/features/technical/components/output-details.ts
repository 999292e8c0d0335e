/**
 * What an output line says beyond its message, read from the structured line: the request
 * (method and path), the answer (status and time) and an error's message. Empty when the line
 * has none or is not JSON.
 */
export function outputDetails(line: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return '';
  }
  if (!parsed || typeof parsed !== 'object') return '';
  const record = parsed as {
    req?: { method?: unknown; url?: unknown };
    res?: { statusCode?: unknown };
    responseTime?: unknown;
    err?: { message?: unknown };
  };
  const parts: string[] = [];
  if (typeof record.req?.method === 'string' && typeof record.req.url === 'string') {
    parts.push(`${record.req.method} ${record.req.url}`);
  }
  if (typeof record.res?.statusCode === 'number') parts.push(String(record.res.statusCode));
  if (typeof record.responseTime === 'number') parts.push(`${Math.round(record.responseTime)} ms`);
  if (typeof record.err?.message === 'string') parts.push(record.err.message);
  return parts.join(' ');
}
