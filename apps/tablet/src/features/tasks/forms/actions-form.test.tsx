import { actionsResultSchema, submitResultBodySchema } from '@mise/shared/tasks/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setDeviceToken } from '../../../shared/device/device-token';
import {
  buildTask,
  endSession,
  openTestSession,
  outboxRecords,
  renderWithData,
  stubOffline,
} from '../../../test/factories';
import { TaskScreen } from '../task-screen';

vi.mock('../../../shared/camera/camera-capture', async () => ({
  CameraCapture: (await import('./fake-camera')).FakeCameraCapture,
}));

beforeEach(async () => {
  stubOffline();
  await openTestSession();
});
afterEach(async () => {
  await endSession();
  vi.unstubAllGlobals();
});

const task = buildTask({
  module: 'actions',
  name: 'Closing checklist',
  actions: [
    { name: 'Clean the slicer', requires_picture: false },
    { name: 'Empty the bins', requires_picture: true },
    { name: 'Mop the floor', requires_picture: true },
  ],
});

describe('Actions form', () => {
  it('needs an answer for every sub-task and a picture for a done one that requires it', async () => {
    const user = userEvent.setup();
    renderWithData(<TaskScreen taskId={task.id} />, { tasks: [task] });
    const send = await screen.findByRole('button', { name: 'Send' });
    expect(send).toHaveProperty('disabled', true);
    expect(screen.getByText('Clean the slicer: done or not done?')).toBeTruthy();

    const slicer = screen.getByRole('region', { name: 'Clean the slicer' });
    const bins = screen.getByRole('region', { name: 'Empty the bins' });
    const floor = screen.getByRole('region', { name: 'Mop the floor' });
    await user.click(within(slicer).getByRole('button', { name: /^✓ Done/ }));
    await user.click(within(bins).getByRole('button', { name: /^✓ Done/ }));
    // Not done: no picture asked for.
    await user.click(within(floor).getByRole('button', { name: /Not done/ }));
    expect(
      within(floor)
        .getByRole('button', { name: /Not done/ })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    expect(screen.getByText('Empty the bins: a picture is required when it is done.')).toBeTruthy();
    expect(screen.queryByText(/Mop the floor:/)).toBeNull();
    expect(send).toHaveProperty('disabled', true);

    await user.click(within(bins).getByRole('button', { name: 'Take a picture: Empty the bins' }));
    await user.click(screen.getByRole('button', { name: 'Fake shutter' }));
    await within(bins).findByRole('img', { name: 'Picture 1: Empty the bins' });
    // One picture per sub-task: the button is gone.
    expect(
      within(bins).queryByRole('button', { name: 'Take a picture: Empty the bins' }),
    ).toBeNull();
    expect(send).toHaveProperty('disabled', false);
    await user.click(send);

    await waitFor(async () => expect(await outboxRecords()).toHaveLength(1));
    const [record] = await outboxRecords();
    const result = actionsResultSchema.parse(submitResultBodySchema.parse(record!.body).result);
    expect(result.entries).toEqual([
      { index: 0, action: 'Clean the slicer', done: true, requires_picture: false, picture: null },
      {
        index: 1,
        action: 'Empty the bins',
        done: true,
        requires_picture: true,
        picture: { path: expect.stringMatching(/^local:/), timestamp: expect.any(Number) },
      },
      { index: 2, action: 'Mop the floor', done: false, requires_picture: true, picture: null },
    ]);
  });
});

describe('Action attachments', () => {
  const folder = 'databases/00000000-0000-4000-8000-00000000000d/task_configurations_attachments';
  const imagePath = `${folder}/a1/how-it-should-look.jpg`;
  const pdfPath = `${folder}/a2/procedure.pdf`;
  // Built apart: the actions carry their reference documents (spec 001 §3.6).
  const actions = [
    {
      name: 'Clean the slicer',
      requires_picture: false,
      attachments: [
        { name: 'How the slicer should look when clean', path: imagePath },
        { name: 'Procedure', path: pdfPath },
      ],
    },
    { name: 'Empty the bins', requires_picture: false, attachments: [] },
  ];
  const withAttachments = buildTask({ module: 'actions', name: 'Cleaning', actions });

  it('lists them with shortened names and opens a picture full screen', async () => {
    await setDeviceToken('device-token');
    const fetchMock = vi.fn(async (input: RequestInfo | URL, _init?: RequestInit) => {
      const url = String(input);
      if (url.startsWith(`/api/files/${imagePath}`))
        return new Response(new Blob(['jpeg'], { type: 'image/jpeg' }));
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithData(<TaskScreen taskId={withAttachments.id} />, { tasks: [withAttachments] });

    const slicer = await screen.findByRole('region', { name: 'Clean the slicer' });
    const list = within(slicer).getByRole('list', { name: 'Documents for Clean the slicer' });
    const picture = within(list).getByRole('button', {
      name: 'View the picture: How the slicer should look when clean',
    });
    // 20 characters at most: 19 and an ellipsis.
    expect(picture.textContent).toContain('How the slicer shou…');
    expect(picture.textContent).not.toContain('should look');
    expect(within(list).getByRole('button', { name: 'Open the PDF: Procedure' })).toBeTruthy();
    const bins = screen.getByRole('region', { name: 'Empty the bins' });
    expect(within(bins).queryByRole('list')).toBeNull();

    // The thumbnail is read with the device token, at its small size.
    await waitFor(() =>
      expect(picture.querySelector('img')?.getAttribute('src')).toMatch(/^blob:/),
    );
    const thumbnailCall = fetchMock.mock.calls.find(
      ([url]) => String(url) === `/api/files/${imagePath}?size=thumb`,
    );
    expect(new Headers(thumbnailCall?.[1]?.headers).get('authorization')).toBe(
      'Bearer device-token',
    );

    await user.click(picture);
    const viewer = screen.getByRole('dialog', { name: 'How the slicer should look when clean' });
    const full = await within(viewer).findByRole('img', {
      name: 'How the slicer should look when clean',
    });
    expect(full.getAttribute('src')).toMatch(/^blob:/);
    expect(fetchMock.mock.calls.some(([url]) => String(url) === `/api/files/${imagePath}`)).toBe(
      true,
    );
    await user.click(within(viewer).getByRole('button', { name: /Close/ }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('plays a video full screen, streamed by its address when the service worker controls the page', async () => {
    const videoPath = `${folder}/a3/how-to-clean.mp4`;
    const withVideo = buildTask({
      module: 'actions',
      name: 'Cleaning with a video',
      actions: [
        {
          name: 'Clean the slicer',
          requires_picture: false,
          attachments: [{ name: 'How to clean', path: videoPath }],
        },
      ],
    });
    await setDeviceToken('device-token');
    const fetchMock = vi.fn(async (input: RequestInfo | URL, _init?: RequestInit) => {
      if (String(input) === `/api/files/${videoPath}`)
        return new Response(new Blob(['mp4'], { type: 'video/mp4' }));
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchMock);
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { controller: {}, addEventListener: vi.fn(), removeEventListener: vi.fn() },
    });
    try {
      const user = userEvent.setup();
      renderWithData(<TaskScreen taskId={withVideo.id} />, { tasks: [withVideo] });
      const slicer = await screen.findByRole('region', { name: 'Clean the slicer' });
      await user.click(
        within(slicer).getByRole('button', { name: 'Play the video: How to clean' }),
      );
      const viewer = screen.getByRole('dialog', { name: 'How to clean' });
      const player = viewer.querySelector('video')!;
      expect(player.getAttribute('src')).toBe(`/api/files/${videoPath}`);
      expect(player.getAttribute('preload')).toBe('metadata');
      expect(player.hasAttribute('controls')).toBe(true);
      expect(fetchMock.mock.calls.some(([url]) => String(url) === `/api/files/${videoPath}`)).toBe(
        false,
      );

      // A player that cannot read it that way gets the whole file, read with the token.
      player.dispatchEvent(new Event('error'));
      await waitFor(() =>
        expect(viewer.querySelector('video')?.getAttribute('src')).toMatch(/^blob:/),
      );
      const call = fetchMock.mock.calls.find(([url]) => String(url) === `/api/files/${videoPath}`);
      expect(new Headers(call?.[1]?.headers).get('authorization')).toBe('Bearer device-token');
    } finally {
      Reflect.deleteProperty(navigator, 'serviceWorker');
    }
  });

  it('keeps the name and says "available online" when the file cannot be fetched', async () => {
    // stubOffline: every fetch fails.
    renderWithData(<TaskScreen taskId={withAttachments.id} />, { tasks: [withAttachments] });
    const slicer = await screen.findByRole('region', { name: 'Clean the slicer' });
    const picture = within(slicer).getByRole('button', {
      name: 'View the picture: How the slicer should look when clean',
    });
    await waitFor(() => expect(picture.textContent).toContain('Available online'));
    expect(picture.textContent).toContain('How the slicer shou…');
    expect(picture.querySelector('img')).toBeNull();

    // The PDF fails too: its name stays, marked available online.
    const opened = { location: { href: '' }, close: vi.fn() };
    vi.stubGlobal(
      'open',
      vi.fn(() => opened),
    );
    const pdf = within(slicer).getByRole('button', { name: 'Open the PDF: Procedure' });
    expect(pdf.textContent).not.toContain('Available online');
    await userEvent.setup().click(pdf);
    await waitFor(() => expect(pdf.textContent).toContain('Available online'));
    expect(opened.close).toHaveBeenCalled();
    expect(pdf.textContent).toContain('Procedure');
  });
});
