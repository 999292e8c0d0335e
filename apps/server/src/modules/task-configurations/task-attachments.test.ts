import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { encodeMetadata } from '../uploads/test-support';
import { loadGenerationConfigurations } from './generation-configurations';

const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let distributorA: Agent;
let distributorB: Agent;
let baseUrl: string;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  distributorA = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  distributorB = await signIn(context.app, tenants.b.users.distributor.email, testPassword);
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  const address = context.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  baseUrl = `http://127.0.0.1:${address.port}`;
});

/** A whole file through tus in one PATCH: the creation answer and the outcome. */
async function upload(agent: Agent, purpose: string, owner: string, data: Buffer) {
  const headers = { 'tus-resumable': '1.0.0', cookie: agent.cookie, 'x-csrf-token': agent.csrf };
  const created = await fetch(`${baseUrl}/api/uploads`, {
    method: 'POST',
    headers: {
      ...headers,
      'upload-length': String(data.length),
      'upload-metadata': encodeMetadata({
        purpose,
        owner,
        filename: 'Procédure nettoyage.pdf',
        filetype: 'application/pdf',
      }),
    },
  });
  if (created.status !== 201) return { status: created.status, result: null };
  const location = created.headers.get('location')!;
  await fetch(`${baseUrl}${location}`, {
    method: 'PATCH',
    headers: {
      ...headers,
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    },
    body: new Uint8Array(data),
  });
  const outcome = (await (await fetch(`${baseUrl}${location}`, { headers })).json()) as {
    result: unknown;
  };
  return { status: 201, result: outcome.result as { path: string; name: string; url: string } };
}

describe('action attachments (spec 001 §3.6)', () => {
  it('uploads a procedure for an action, saves it on the configuration and hands it to the generated tasks', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(2048)]);
    const { result } = await upload(
      distributorA,
      'database-task-attachment',
      tenants.a.database.id,
      pdf,
    );
    expect(result?.path).toMatch(
      new RegExp(
        `^databases/${tenants.a.database.id}/task_configurations_attachments/[0-9a-f-]+/Procedure-nettoyage\\.pdf$`,
      ),
    );
    expect(result?.name).toBe('Procédure nettoyage.pdf');
    const file = await distributorA.inject({ method: 'GET', url: result!.url });
    expect(file.rawPayload.equals(pdf)).toBe(true);

    const saved = await distributorA.inject({
      method: 'POST',
      url: `/api/databases/${tenants.a.database.id}/taskConfigurations`,
      payload: {
        name: 'Nettoyage',
        module: 'actions',
        schedules: [{ start: 600, end: 660 }],
        configuration: {
          actions: [
            {
              name: 'Laver le plan de travail',
              requires_picture: true,
              attachments: [{ name: result!.name, path: result!.path }],
            },
          ],
        },
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const loaded = await loadGenerationConfigurations(context.db, [tenants.a.stores[0]!.id]);
    const configuration = loaded
      .get(tenants.a.stores[0]!.id)!
      .find((item) => item.name === 'Nettoyage');
    expect(configuration?.actions).toEqual([
      {
        name: 'Laver le plan de travail',
        requires_picture: true,
        attachments: [{ name: 'Procédure nettoyage.pdf', path: result!.path }],
      },
    ]);
  });

  it("refuses another tenant's database or store, and a file that is not what it claims", async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(64)]);
    expect(
      (await upload(distributorB, 'database-task-attachment', tenants.a.database.id, pdf)).status,
    ).toBe(404);
    expect(
      (await upload(distributorB, 'store-task-attachment', tenants.a.stores[0]!.id, pdf)).status,
    ).toBe(404);
    const fake = await upload(
      distributorA,
      'database-task-attachment',
      tenants.a.database.id,
      Buffer.from('not a pdf'),
    );
    expect(fake.result).toBeNull();
  });
});
