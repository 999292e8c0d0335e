import type { FastifyInstance } from 'fastify';
import { type buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn } from '../../test/harness';
import { asDevice, employeeToken } from '../device/test-support';
import { encodeMetadata } from '../uploads/test-support';

/*
 * What the tests of communications and trainings share: the users of two tenants signed in,
 * the app listening for tus uploads (they go over HTTP), an attachment uploaded whole, and an
 * employee identified on a tablet.
 */

/** The users the tests act as, each signed in. */
export async function signInLearningUsers(
  app: FastifyInstance,
  tenants: Awaited<ReturnType<typeof buildTwoTenants>>,
) {
  return {
    admin: await signIn(app, tenants.admin.email, testPassword),
    distributorA: await signIn(app, tenants.a.users.distributor.email, testPassword),
    managerA: await signIn(app, tenants.a.users.manager.email, testPassword),
    customerA: await signIn(app, tenants.a.users.customer.email, testPassword),
    managerB: await signIn(app, tenants.b.users.manager.email, testPassword),
  };
}

/** Listens on a free local port (tus uploads are real HTTP requests): the base URL. */
export async function listenLocally(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

/** A whole PDF through tus in one PATCH: the creation's status and the outcome's result. */
export async function uploadPdf(
  baseUrl: string,
  agent: Agent,
  file: { purpose: string; owner: string; filename: string; data: Buffer },
) {
  const headers = { 'tus-resumable': '1.0.0', cookie: agent.cookie, 'x-csrf-token': agent.csrf };
  const created = await fetch(`${baseUrl}/api/uploads`, {
    method: 'POST',
    headers: {
      ...headers,
      'upload-length': String(file.data.length),
      'upload-metadata': encodeMetadata({
        purpose: file.purpose,
        owner: file.owner,
        filename: file.filename,
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
    body: new Uint8Array(file.data),
  });
  const outcome = (await (await fetch(`${baseUrl}${location}`, { headers })).json()) as {
    result: { path: string; name: string } | null;
  };
  return { status: 201, result: outcome.result };
}

/** Calls the API as the employee identified on the tablet (built by buildDevice). */
export async function asEmployeeOn(
  app: FastifyInstance,
  tablet: { token: string },
  employeeId: string,
) {
  return asDevice(app, tablet.token, await employeeToken(app, tablet.token, employeeId));
}
