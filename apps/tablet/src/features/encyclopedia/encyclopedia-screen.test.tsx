import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceElement } from '../../shared/api/types';
import { setDeviceToken } from '../../shared/device/device-token';
import { EncyclopediaScreen } from './encyclopedia-screen';

const modules = {
  temperatures: false,
  labels: false,
  traceability: false,
  oils: false,
  temperature_control: false,
  encyclopedia: false,
  display_active: false,
};

function element(
  values: Partial<DeviceElement> & Pick<DeviceElement, 'id' | 'name'>,
): DeviceElement {
  return {
    type_name: null,
    illustration_url: null,
    modules,
    minimum_temperature: null,
    maximum_temperature: null,
    temperature_require_picture: false,
    temperature_picture: false,
    maximum_polarity: null,
    oils_require_picture: false,
    reheating_temperature: null,
    reheating_duration: null,
    cooling_temperature: null,
    cooling_duration: null,
    allergens: [],
    attachments: [],
    labels: [],
    ...values,
  };
}

const imageUrl = '/api/files/stores/00000000-0000-4000-8000-00000000000a/elements/recipe.jpg';
const pdfUrl = '/api/files/stores/00000000-0000-4000-8000-00000000000a/elements/haccp.pdf';
const items = [
  element({
    id: '00000000-0000-4000-8000-000000000001',
    name: 'Tiramisu',
    type_name: 'Desserts',
    modules: { ...modules, encyclopedia: true },
    allergens: ['egg', 'milkOrLactose'],
    attachments: [
      { name: 'Recipe card', type: 'image', url: imageUrl },
      { name: 'HACCP plan', type: 'pdf', url: pdfUrl },
      { name: 'Plating', type: 'video', url: 'https://videos.example.com/plating.mp4' },
    ],
  }),
  element({
    id: '00000000-0000-4000-8000-000000000002',
    name: 'Dish of the day',
    modules: { ...modules, display_active: true },
  }),
  element({ id: '00000000-0000-4000-8000-000000000003', name: 'Walk-in fridge' }),
];

let fetchMock: ReturnType<typeof vi.fn>;

function renderScreen() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(['elements'], { items });
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
});

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
