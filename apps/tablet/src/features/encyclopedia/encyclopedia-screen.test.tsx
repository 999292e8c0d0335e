import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setDeviceToken } from '../../shared/device/device-token';
import { buildElement, noModules } from '../../test/factories';
import { EncyclopediaScreen } from './encyclopedia-screen';

const imageUrl = '/api/files/stores/00000000-0000-4000-8000-00000000000a/elements/recipe.jpg';
const pdfUrl = '/api/files/stores/00000000-0000-4000-8000-00000000000a/elements/haccp.pdf';
const items = [
  buildElement({
    id: '00000000-0000-4000-8000-000000000001',
    name: 'Tiramisu',
    type_name: 'Desserts',
    modules: { ...noModules, encyclopedia: true },
    allergens: ['egg', 'milkOrLactose'],
    attachments: [
      { name: 'Recipe card', type: 'image', url: imageUrl },
      { name: 'HACCP plan', type: 'pdf', url: pdfUrl },
      { name: 'Plating', type: 'video', url: 'https://videos.example.com/plating.mp4' },
    ],
  }),
  buildElement({
    id: '00000000-0000-4000-8000-000000000002',
    name: 'Dish of the day',
    modules: { ...noModules, display_active: true },
  }),
  buildElement({ id: '00000000-0000-4000-8000-000000000003', name: 'Walk-in fridge' }),
];

let fetchMock: ReturnType<typeof vi.fn>;

function renderScreen(elements = items) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(['elements'], { items: elements });
  return render(
    <QueryClientProvider client={queryClient}>
      <EncyclopediaScreen />
    </QueryClientProvider>,
  );
}

beforeEach(async () => {
  await setDeviceToken('device-token');
  fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url === imageUrl) return new Response(new Blob(['jpeg'], { type: 'image/jpeg' }));
    if (url === pdfUrl) return new Response(new Blob(['%PDF-'], { type: 'application/pdf' }));
    throw new TypeError('Failed to fetch');
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

/** The app's service worker controls the page (it adds the device token to media requests). */
function controlledByServiceWorker() {
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { controller: {}, addEventListener: vi.fn(), removeEventListener: vi.fn() },
  });
}

describe('EncyclopediaScreen', () => {
  it('lists the encyclopedia elements and those shown on a secondary screen', () => {
    renderScreen();
    const encyclopedia = screen.getByRole('region', { name: 'Products' });
    expect(within(encyclopedia).getByRole('button', { name: /Tiramisu/ })).toBeTruthy();
    expect(within(encyclopedia).queryByRole('button', { name: /Dish of the day/ })).toBeNull();
    const display = screen.getByRole('region', { name: 'Display on a secondary screen' });
    expect(within(display).getByRole('button', { name: /Dish of the day/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Walk-in fridge/ })).toBeNull();
  });

  it('opens an element: allergens with letters, its attachments, each read its own way', async () => {
    const opened = { location: { href: '' }, close: vi.fn() };
    const open = vi.fn(() => opened);
    vi.stubGlobal('open', open);
    const user = userEvent.setup();
    renderScreen();
    await user.click(screen.getByRole('button', { name: /Tiramisu/ }));

    const allergens = screen.getByRole('region', { name: 'Allergens' });
    expect(
      within(allergens)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['C Eggs', 'G Milk']);
    const attachments = screen.getByRole('region', { name: 'Documents' });
    expect(
      within(attachments)
        .getAllByRole('heading', { level: 3 })
        .map((item) => item.textContent),
    ).toEqual(['Recipe card', 'HACCP plan', 'Plating']);
    // The picture is read with the device token and shown large.
    const picture = await within(attachments).findByRole('img', { name: 'Recipe card' });
    expect(picture.getAttribute('src')).toMatch(/^blob:/);
    const imageCall = fetchMock.mock.calls.find(([url]) => String(url) === imageUrl);
    expect(new Headers(imageCall?.[1]?.headers).get('authorization')).toBe('Bearer device-token');

    // The PDF opens in a new window.
    await user.click(within(attachments).getByRole('button', { name: 'Open the PDF' }));
    await waitFor(() => expect(opened.location.href).toMatch(/^blob:/));
    expect(open).toHaveBeenCalledWith('', '_blank');

    // The video plays in the page with its controls.
    await user.click(within(attachments).getByRole('button', { name: 'Play the video' }));
    const video = attachments.querySelector('video');
    expect(video?.getAttribute('src')).toBe('https://videos.example.com/plating.mp4');
    expect(video?.hasAttribute('controls')).toBe(true);
  });

  it('streams a protected video by its address once the service worker controls the page, read whole before', async () => {
    const videoUrl = '/api/files/stores/00000000-0000-4000-8000-00000000000a/elements/plating.mp4';
    const withVideo = [
      buildElement({
        id: '00000000-0000-4000-8000-000000000004',
        name: 'Crème brûlée',
        modules: { ...noModules, encyclopedia: true },
        attachments: [{ name: 'Torching', type: 'video', url: videoUrl }],
      }),
    ];
    fetchMock.mockImplementation(async (input: RequestInfo | URL) => {
      if (String(input) === videoUrl) return new Response(new Blob(['mp4'], { type: 'video/mp4' }));
      throw new TypeError('Failed to fetch');
    });
    const user = userEvent.setup();

    // Without the worker (first visit): the file is read whole with the token, then played.
    const first = renderScreen(withVideo);
    await user.click(screen.getByRole('button', { name: /Crème brûlée/ }));
    await user.click(screen.getByRole('button', { name: 'Play the video' }));
    await waitFor(() =>
      expect(first.container.querySelector('video')?.getAttribute('src')).toMatch(/^blob:/),
    );
    first.unmount();
    fetchMock.mockClear();

    // With it: the player gets the address (the worker authenticates, the player seeks with
    // ranges) and reads only the metadata until it plays; nothing is fetched whole.
    controlledByServiceWorker();
    const second = renderScreen(withVideo);
    await user.click(screen.getByRole('button', { name: /Crème brûlée/ }));
    await user.click(screen.getByRole('button', { name: 'Play the video' }));
    const player = second.container.querySelector('video')!;
    expect(player.getAttribute('src')).toBe(videoUrl);
    expect(player.getAttribute('preload')).toBe('metadata');
    expect(player.hasAttribute('controls')).toBe(true);
    expect(fetchMock.mock.calls.some(([url]) => String(url) === videoUrl)).toBe(false);

    // A player that cannot read it that way falls back to the whole file.
    player.dispatchEvent(new Event('error'));
    await waitFor(() =>
      expect(second.container.querySelector('video')?.getAttribute('src')).toMatch(/^blob:/),
    );
  });

  it('says the attachments need the network when offline', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const user = userEvent.setup();
    renderScreen();
    await user.click(screen.getByRole('button', { name: /Tiramisu/ }));
    expect(
      screen.getByText('Offline: pictures, PDFs and videos need the network.', {
        selector: '[role="status"]',
      }),
    ).toBeTruthy();
    expect(
      (screen.getByRole('button', { name: 'Open the PDF' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(fetchMock.mock.calls.some(([url]) => String(url) === imageUrl)).toBe(false);
  });
});
