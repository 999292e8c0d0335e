/** The server the pg test project runs against: DATABASE_URL, else the local one. */
export function adminDatabaseUrl(): string {
  return process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export function withDatabase(name: string): string {
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
}
