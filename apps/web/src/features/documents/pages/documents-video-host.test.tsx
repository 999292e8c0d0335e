import type { CreateVideoResponse, DocumentItem } from '@mise/shared/documents/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResumableUpload } from '../../../shared/upload/use-resumable-upload';
import { buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { buildDocument, buildPage, buildRoot } from '../test/build-document';
import { expectNoAxeViolations } from '../test/expect-no-axe-violations';
import { decodeTusMetadata, FakeVideoHostServer } from '../test/fake-video-host';

// The browser build of tus-js-client, as Vite bundles it (XMLHttpRequest).
// @ts-expect-error the browser entry has no type declarations of its own
vi.mock('tus-js-client', () => import('tus-js-client/lib.esm/browser/index.js'));

// Our own resumable upload is tested where it lives: here it only says whether it was used.
const resumable = vi.hoisted(() => ({ start: vi.fn() }));
vi.mock('../../../shared/upload/use-resumable-upload', () => ({
  useResumableUpload: (): ResumableUpload => ({
    start: resumable.start,
    pause: () => undefined,
    resume: () => undefined,
    cancel: () => undefined,
    state: {
      status: 'uploading',
      bytesSent: 0,
      bytesTotal: 1,
      speedBytesPerSecond: 0,
      secondsLeft: null,
    },
  }),
}));

const pageLoad = { timeout: 10_000 };
const megabyte = 1024 * 1024;
const store = buildRoot('store', 'Bistro Opéra');
const owner = store.owner;
const storePath = `/documents?owner_kind=store&owner_id=${owner.id}`;
const endpoint = 'https://upload-1.video.example/upload/';
const hostLink = 'https://cdn.video.example/videos/4821.mp4';

const placeholder = buildDocument(owner, {
  name: 'Nettoyage friteuse.mp4',
  content_type: 'video/mp4',
  isVideo: true,
  videoId: '4821',
  url: hostLink,
  length: 2 * megabyte,
});

const ticketAnswer: CreateVideoResponse = {
  host: 'http',
  item: placeholder,
  ticket: {
    endpoint,
    metadata: {
      filename: 'Nettoyage friteuse.mp4',
      token: 'upload-token-1',
      video_id: '4821',
      client_id: '77',
    },
    headers: {},
    retryDelays: [0, 3000, 5000, 10000, 20000],
  },
};

function videoFile() {
  const file = new File([new Uint8Array(2 * megabyte)], 'Nettoyage friteuse.mp4', {
    type: 'video/mp4',
  });
  return file;
}

function fileInput(): HTMLInputElement {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('No file input');
  return input;
}

function renderExplorer(
  videos: MockHandler,
  listed: () => DocumentItem[] = () => [],
  extra: Record<string, MockHandler> = {},
) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'customer' }) } },
    'GET /api/documents/roots': { body: { items: [store] } },
    'GET /api/documents': () => ({ body: buildPage(listed()) }),
    'POST /api/documents/videos': videos,
    ...extra,
  });
  const host = new FakeVideoHostServer().install();
  return { ...renderApp(storePath), api, host };
}

const entryStatuses = () =>
  screen.getAllByTestId('upload-entry').map((entry) => entry.dataset.status);

beforeEach(() => {
  resumable.start.mockReset();
});

describe('videos sent to the outside video host', { timeout: 30_000 }, () => {
  it("asks the ticket, sends the bytes to the ticket's endpoint with its metadata, shows the progress, then lists the video playing from the host", async () => {
    let isUploaded = false;
    const { user, api, host, container } = renderExplorer({ body: ticketAnswer }, () =>
      isUploaded ? [placeholder] : [],
    );
    await screen.findByTestId('document-upload', {}, pageLoad);
    await user.upload(fileInput(), videoFile());

    await waitFor(() => expect(api.callsTo('POST', '/api/documents/videos')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/documents/videos')[0]?.body).toEqual({
      owner,
      parent_id: null,
      name: 'Nettoyage friteuse.mp4',
      size: 2 * megabyte,
      content_type: 'video/mp4',
    });

    // The tus creation goes to the ticket's endpoint with exactly its metadata, no token of ours.
    await waitFor(() => expect(host.patches).toHaveLength(1));
    const [creation] = host.requestsOf('POST');
    expect(creation?.url).toBe(endpoint);
    expect(decodeTusMetadata(creation?.headers['upload-metadata'])).toEqual(
      ticketAnswer.host === 'http' ? ticketAnswer.ticket.metadata : {},
    );
    expect(creation?.headers['upload-length']).toBe(String(2 * megabyte));
    expect(creation?.headers['x-csrf-token']).toBeUndefined();
    const patch = host.patches[0]!;
    expect(patch.request.url).toBe(`${endpoint}v1`);
    expect(patch.request.headers['upload-offset']).toBe('0');

    // The same progress as any upload, from the host's upload.
    patch.progress(megabyte);
    const entry = screen.getByTestId('upload-entry');
    await waitFor(() =>
      expect(within(entry).getByTestId('upload-progress-figures').textContent).toContain('50%'),
    );
    expect(within(entry).getByTestId('upload-progress-pause')).toBeTruthy();
    await expectNoAxeViolations(container);

    isUploaded = true;
    const listReads = api.callsTo('GET', '/api/documents').length;
    patch.accept();
    await waitFor(() => expect(entryStatuses()).toEqual(['done']));
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/documents').length).toBeGreaterThan(listReads),
    );
    expect(resumable.start).not.toHaveBeenCalled();
    expect(api.callsTo('DELETE', `/api/documents/${placeholder.id}`)).toHaveLength(0);

    // The video plays from its document's url: the host's link.
    await user.click(await screen.findByRole('button', { name: 'Nettoyage friteuse.mp4' }));
    const player = await screen.findByTestId('document-preview-video');
    expect(player.getAttribute('src')).toBe(hostLink);
  });

  it('pauses and resumes from the host offset; cancelling deletes the placeholder', async () => {
    const { user, api, host } = renderExplorer({ body: ticketAnswer }, () => [], {
      [`DELETE /api/documents/${placeholder.id}`]: { status: 204 },
    });
    await screen.findByTestId('document-upload', {}, pageLoad);
    await user.upload(fileInput(), videoFile());
    await waitFor(() => expect(host.patches).toHaveLength(1));

    await user.click(screen.getByTestId('upload-progress-pause'));
    expect(host.patches[0]!.isAborted).toBe(true);
    await user.click(await screen.findByTestId('upload-progress-resume'));
    // tus asks the host where it stands, then sends from there.
    await waitFor(() => expect(host.patches).toHaveLength(2));
    expect(host.requestsOf('HEAD').map((request) => request.url)).toEqual([`${endpoint}v1`]);

    await user.click(screen.getByTestId('upload-progress-cancel'));
    await waitFor(() => expect(entryStatuses()).toEqual(['cancelled']));
    await waitFor(() =>
      expect(api.callsTo('DELETE', `/api/documents/${placeholder.id}`)).toHaveLength(1),
    );
    // The upload is ended at the host too.
    await waitFor(() =>
      expect(host.requestsOf('DELETE').map((request) => request.url)).toEqual([`${endpoint}v1`]),
    );
  });

  it('with the local host, sends the video through our resumable upload', async () => {
    resumable.start.mockResolvedValue({ status: 'completed', result: {}, error: null });
    const { user, host } = renderExplorer({ body: { host: 'local' } });
    await screen.findByTestId('document-upload', {}, pageLoad);
    await user.upload(fileInput(), videoFile());
    await waitFor(() => expect(resumable.start).toHaveBeenCalledTimes(1));
    expect(resumable.start.mock.calls[0]?.[1]).toEqual({
      purpose: 'document',
      owner: `store:${owner.id}:root`,
    });
    await waitFor(() => expect(entryStatuses()).toEqual(['done']));
    expect(host.requests).toEqual([]);
  });

  it('tells that the name exists, and that the host failed, without sending anything', async () => {
    let answer = apiError(409, 'documents.file-exists');
    const { user, host } = renderExplorer(() => answer);
    await screen.findByTestId('document-upload', {}, pageLoad);
    await user.upload(fileInput(), videoFile());
    expect((await screen.findByTestId('document-upload-refused')).textContent).toBe(
      'A file or folder with this name already exists here.',
    );
    await user.click(screen.getByTestId('document-upload-refused-ok'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    answer = apiError(502, 'documents.video-host-failed');
    await user.upload(fileInput(), videoFile());
    await waitFor(() => expect(entryStatuses()).toEqual(['failed', 'failed']));
    expect(screen.getAllByTestId('upload-entry-status')[1]?.textContent).toBe(
      'The video host did not answer. Try again later.',
    );
    expect(host.requests).toEqual([]);
    expect(resumable.start).not.toHaveBeenCalled();
  });
});
