import pg from 'pg';

const cities = [
  'Paris',
  'Lyon',
  'Lille',
  'Marseille',
  'Bordeaux',
  'Nantes',
  'Toulouse',
  'Nice',
  'Rennes',
  'Dijon',
];
const surnames = [
  'Martin',
  'Bernard',
  'Dubois',
  'Thomas',
  'Robert',
  'Richard',
  'Petit',
  'Durand',
  'Leroy',
  'Moreau',
];

/**
 * Adds many stores to the demo distributor's database (each with an owner account) and many
 * more accounts, in a few set-based statements, then refreshes the planner's statistics.
 */
export async function addScaleData(url: string, storeCount: number, userCount: number) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ distributor_id: string; database_id: string }>(
      `SELECT s.distributor_id, s.database_id FROM stores s
       JOIN distributors d ON d.id = s.distributor_id
       WHERE d.name = 'Mise Distribution France' LIMIT 1`,
    );
    const demo = rows[0];
    if (!demo) throw new Error('demo organisation missing');
    const passwordHash = (
      await client.query<{ password_hash: string }>(
        "SELECT password_hash FROM users WHERE email = 'customer@demo.test'",
      )
    ).rows[0]!.password_hash;
    await client.query(
      `INSERT INTO stores (name, address, postal_code, city, distributor_id, database_id, mise_licence)
       SELECT 'Store ' || i || ' ' || ($3::text[])[1 + i % 10], i || ' rue du Marché',
              lpad((i % 95000)::text, 5, '0'), ($3::text[])[1 + i % 10], $1, $2, i % 3 = 0
       FROM generate_series(1, $4) AS i`,
      [demo.distributor_id, demo.database_id, cities, storeCount],
    );
    await client.query(
      `INSERT INTO users (email, password_hash, role, name, surname)
       SELECT 'user' || i || '@scale.test', $1, 'customer', 'Prénom' || i, ($2::text[])[1 + i % 10]
       FROM generate_series(1, $3) AS i`,
      [passwordHash, surnames, userCount],
    );
    await client.query(
      `INSERT INTO store_owners (store_id, user_id)
       SELECT s.id, u.id FROM
         (SELECT id, row_number() OVER (ORDER BY id) AS n FROM stores WHERE name LIKE 'Store %') s
         JOIN (SELECT id, row_number() OVER (ORDER BY id) AS n FROM users WHERE email LIKE '%@scale.test') u
         ON u.n = s.n`,
    );
    await client.query('ANALYZE');
    return { stores: storeCount, users: userCount };
  } finally {
    await client.end();
  }
}
