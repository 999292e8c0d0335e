import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mock-api';
import { ApiError } from '../api/api-error';
import { i18n } from '../i18n/i18n';
import { FakeTusServer } from './test-support';
import { isUploadCancelled } from './upload-errors';
import {
  type ResumableUpload,
  type UploadOutcome,
  uploadRetryDelays,
  useResumableUpload,
} from './use-resumable-upload';

// The browser build of tus-js-client, as Vite bundles it (XMLHttpRequest, localStorage).
// @ts-expect-error the browser entry has no type declarations of its own
vi.mock('tus-js-client', () => import('tus-js-client/lib.esm/browser/index.js'));

const megabyte = 1024 * 1024;
const meta = {
  purpose: 'database-element-attachment',
  owner: '5b1c2d3e-0000-4000-8000-000000000001',
};

function pdf(name = 'Fiche technique.pdf') {
  return new File(['%PDF-1.7 a procedure'], name, {
    type: 'application/pdf',
    lastModified: 1_700_000_000_000,
  });
}

function setUp() {
  let tokens = 0;
  const api = mockApi({
    'GET /api/auth/csrf': () => ({ body: { csrfToken: `csrf-${++tokens}` } }),
  });
  const server = new FakeTusServer().install();
  const hook = renderHook(() => useResumableUpload());
  return { api, server, hook };
}

/** start() outside act's warnings; the promise is settled by the test. */
function startUpload(
  hook: { result: { current: ResumableUpload } },
  file: File,
  uploadMeta = meta,
) {
  let promise: Promise<UploadOutcome> = Promise.resolve({} as UploadOutcome);
  act(() => {
    promise = hook.result.current.start(file, uploadMeta);
  });
  // Observed by the test; never an unhandled rejection meanwhile.
  promise.catch(() => undefined);
  return promise;
}

const tusStorageKeys = () =>
  Object.keys(window.localStorage).filter((key) => key.startsWith('tus::'));

describe('useResumableUpload', () => {
  it('uses the spec retry delays', () => {
    expect(uploadRetryDelays).toEqual([0, 3000, 5000, 10000, 20000]);
  });

  it('refuses a file over 500 MB before sending anything, in the interface language', async () => {
    const { api, server, hook } = setUp();
    const big = pdf('film.mp4');
    Object.defineProperty(big, 'size', { value: 500 * megabyte + 1 });
    const error = await startUpload(hook, big).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('documents.file-too-big');
    await waitFor(() => expect(hook.result.current.state.status).toBe('error'));
    expect(hook.result.current.state.error).toEqual({
      code: 'documents.file-too-big',
      message: 'The file is too big: 500 MB at most.',
    });
    expect(server.requests).toEqual([]);
    expect(api.calls).toEqual([]);

    await act(() => i18n.changeLanguage('fr'));
    await startUpload(hook, big).catch(() => undefined);
    await waitFor(() =>
      expect(hook.result.current.state.error?.message).toBe(
        'Le fichier est trop volumineux : 500 Mo au maximum.',
      ),
    );
  });

  it('sends the file with its metadata and the CSRF token, reports progress, resolves with the outcome', async () => {
    const { server, hook } = setUp();
    server.holdPatches = true;
    server.outcomeOf = () => ({
      status: 'completed',
      result: { attachmentId: 'a1', elementId: meta.owner },
    });
    const file = pdf();
    const promise = startUpload(hook, file);
    await waitFor(() => expect(server.heldPatches).toHaveLength(1));
    expect(hook.result.current.state).toMatchObject({ status: 'uploading', bytesTotal: file.size });

    const [post] = server.requestsOf('POST');
    expect(post?.headers['upload-length']).toBe(String(file.size));
    expect(server.uploads.get(FakeTusServer.idOf(1))?.metadata).toEqual({
      purpose: 'database-element-attachment',
      owner: meta.owner,
      filename: 'Fiche technique.pdf',
      filetype: 'application/pdf',
    });
    // The stored fingerprint: a reload finds this upload again.
    expect(tusStorageKeys()).toHaveLength(1);

    act(() => server.heldPatches[0]?.progress(8));
    await waitFor(() => expect(hook.result.current.state.bytesSent).toBe(8));
    act(() => server.heldPatches[0]?.accept());

    const outcome = await promise;
    expect(outcome).toMatchObject({
      id: FakeTusServer.idOf(1),
      status: 'completed',
      result: { attachmentId: 'a1', elementId: meta.owner },
    });
    await waitFor(() => expect(hook.result.current.state.status).toBe('done'));
    expect(hook.result.current.state.bytesSent).toBe(file.size);
    // Every tus request carried the session's CSRF token.
    expect(server.requests.map((request) => request.headers['x-csrf-token'])).toEqual([
      'csrf-1',
      'csrf-1',
    ]);
    // Done: the fingerprint is forgotten (the same file again is a new upload).
    expect(tusStorageKeys()).toEqual([]);
  });

  it.each([
    [413, 'documents.file-too-big', 'The file is too big: 500 MB at most.'],
    [409, 'documents.file-exists', 'A file or folder with this name already exists here.'],
    [403, 'permission/denied', undefined],
  ])('surfaces a %i %s refusal with its code, without retrying', async (status, code, text) => {
    const { server, hook } = setUp();
    server.answer = (request) =>
      request.method === 'POST'
        ? { status, body: { error: { code, message: text ?? 'Refused' } } }
        : undefined;
    const error = await startUpload(hook, pdf()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status, code });
    await waitFor(() => expect(hook.result.current.state.status).toBe('error'));
    expect(hook.result.current.state.error?.code).toBe(code);
    if (text) expect(hook.result.current.state.error?.message).toBe(text);
    expect(server.requestsOf('POST')).toHaveLength(1);
  });

  it('sends a refusal found at the last byte (415) as the error, from the PATCH answer', async () => {
    const { server, hook } = setUp();
    server.answer = (request) =>
      request.method === 'PATCH'
        ? {
            status: 415,
            body: { error: { code: 'file/unsupported-type', message: 'Not accepted' } },
          }
        : undefined;
    const error = await startUpload(hook, pdf()).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'file/unsupported-type' });
    await waitFor(() =>
      expect(hook.result.current.state.error?.message).toBe('This type of file is not accepted.'),
    );
    expect(server.requestsOf('PATCH')).toHaveLength(1);
  });

  it('asks a fresh CSRF token once when the server refuses the token', async () => {
    const { server, hook } = setUp();
    let refusals = 0;
    server.answer = (request) => {
      if (request.method !== 'POST' || refusals > 0) return undefined;
      refusals += 1;
      return { status: 403, body: { error: { code: 'auth/csrf', message: 'stale' } } };
    };
    await startUpload(hook, pdf());
    expect(server.requestsOf('POST').map((request) => request.headers['x-csrf-token'])).toEqual([
      'csrf-1',
      'csrf-2',
    ]);
  });

  it('goes on from the server offset after a cut connection', async () => {
    const { server, hook } = setUp();
    server.holdPatches = true;
    const file = pdf();
    const promise = startUpload(hook, file);
    await waitFor(() => expect(server.heldPatches).toHaveLength(1));
    // 5 bytes reached the server, then the connection died: retried at once (delay 0).
    act(() => server.heldPatches[0]?.cut(5));
    await waitFor(() => expect(server.heldPatches).toHaveLength(2));
    expect(server.requests.map((request) => request.method)).toEqual([
      'POST',
      'PATCH',
      'HEAD',
      'PATCH',
    ]);
    expect(server.heldPatches[1]?.request.headers['upload-offset']).toBe('5');
    expect(server.heldPatches[1]?.request.body?.size).toBe(file.size - 5);
    act(() => server.heldPatches[1]?.accept());
    await expect(promise).resolves.toMatchObject({ status: 'completed' });
  });

  it('retries after 0, 3, 5, 10 and 20 s, then waits for Resume with the connection error', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { server, hook } = setUp();
    server.isOffline = true;
    const promise = startUpload(hook, pdf());
    const posts = () => server.requestsOf('POST').length;
    await act(() => vi.advanceTimersByTimeAsync(10));
    // The first try and the immediate retry (delay 0).
    expect(posts()).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(2980));
    expect(posts()).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(20));
    expect(posts()).toBe(3);
    await act(() => vi.advanceTimersByTimeAsync(5000 + 10000));
    expect(posts()).toBe(5);
    await act(() => vi.advanceTimersByTimeAsync(19_900));
    expect(posts()).toBe(5);
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(posts()).toBe(6);
    expect(hook.result.current.state).toMatchObject({
      status: 'error',
      error: { code: 'network', message: 'Unable to reach the API' },
    });
    // The promise waits: the user may resume once the network is back.
    server.isOffline = false;
    act(() => hook.result.current.resume());
    await act(() => vi.advanceTimersByTimeAsync(100));
    await expect(promise).resolves.toMatchObject({ status: 'completed' });
    expect(posts()).toBe(7);
  });

  it('pauses, resumes from the server offset, and cancels (deleting the upload)', async () => {
    const { server, hook } = setUp();
    server.holdPatches = true;
    const file = pdf();
    const promise = startUpload(hook, file);
    await waitFor(() => expect(server.heldPatches).toHaveLength(1));
    act(() => server.heldPatches[0]?.progress(6));
    act(() => hook.result.current.pause());
    expect(hook.result.current.state.status).toBe('paused');
    expect(server.heldPatches[0]?.isAborted).toBe(true);
    // What the server stored before the pause.
    const stored = server.uploads.get(FakeTusServer.idOf(1));
    if (stored) stored.offset = 6;

    act(() => hook.result.current.resume());
    await waitFor(() => expect(server.heldPatches).toHaveLength(2));
    expect(hook.result.current.state.status).toBe('uploading');
    expect(server.requestsOf('POST')).toHaveLength(1);
    expect(server.heldPatches[1]?.request.headers['upload-offset']).toBe('6');

    act(() => hook.result.current.cancel());
    await expect(promise).rejects.toSatisfy(isUploadCancelled);
    expect(hook.result.current.state.status).toBe('idle');
    await waitFor(() => expect(server.requestsOf('DELETE')).toHaveLength(1));
    expect(server.requestsOf('DELETE')[0]?.headers['x-csrf-token']).toBe('csrf-2');
    expect(server.uploads.size).toBe(0);
    await waitFor(() => expect(tusStorageKeys()).toEqual([]));
  });

  it('after a reload, resumes the same file for the same record; another record starts anew', async () => {
    const first = setUp();
    first.server.holdPatches = true;
    void startUpload(first.hook, pdf());
    await waitFor(() => expect(first.server.heldPatches).toHaveLength(1));
    // The page goes away with 10 bytes stored on the server.
    first.hook.unmount();
    const stored = first.server.uploads.get(FakeTusServer.idOf(1));
    if (stored) stored.offset = 10;
    expect(tusStorageKeys()).toHaveLength(1);

    const reloaded = renderHook(() => useResumableUpload());
    first.server.holdPatches = false;
    const outcome = await startUpload(reloaded, pdf());
    expect(outcome.id).toBe(FakeTusServer.idOf(1));
    expect(first.server.requests.map((request) => request.method)).toEqual([
      'POST',
      'PATCH',
      'HEAD',
      'PATCH',
    ]);
    expect(first.server.requests.at(-1)?.headers['upload-offset']).toBe('10');

    const other = await startUpload(reloaded, pdf(), {
      ...meta,
      owner: '5b1c2d3e-0000-4000-8000-000000000002',
    });
    expect(other.id).toBe(FakeTusServer.idOf(2));
  });
});
