import {
  createShopOrderBodySchema,
  type ShopOrder,
  type StoreShop,
} from '@mise/shared/shop/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceContext } from '../../shared/api/types';
import { loadDevice, unpair } from '../../shared/device/device-state';
import { setDeviceToken } from '../../shared/device/device-token';
import { flushOutbox, networkReturned } from '../../shared/outbox/outbox';
import { openSession } from '../../shared/session/employee-session';
import { writeValue } from '../../shared/storage/local-db';
import { endSession, outboxRecords, testEmployee } from '../../test/factories';
import { useIsShopShown } from './shop-access';
import { readBasket } from './shop-api';
import { formatEuros } from './shop-basket';
import { ShopScreen } from './shop-screen';

const ids = {
  store: '6c1d2e3f-4a5b-4c6d-8e7f-a0b1c2d3e401',
  buyer: '6c1d2e3f-4a5b-4c6d-8e7f-a0b1c2d3e402',
  cook: '6c1d2e3f-4a5b-4c6d-8e7f-a0b1c2d3e403',
  silent: '6c1d2e3f-4a5b-4c6d-8e7f-a0b1c2d3e404',
  gloves: '6c1d2e3f-4a5b-4c6d-8e7f-a0b1c2d3e405',
  apron: '6c1d2e3f-4a5b-4c6d-8e7f-a0b1c2d3e406',
  probe: '6c1d2e3f-4a5b-4c6d-8e7f-a0b1c2d3e407',
  order: '6c1d2e3f-4a5b-4c6d-8e7f-a0b1c2d3e408',
  distributor: '6c1d2e3f-4a5b-4c6d-8e7f-a0b1c2d3e409',
  database: '6c1d2e3f-4a5b-4c6d-8e7f-a0b1c2d3e40a',
} as const;

function buildContext(hiddenExtensions: DeviceContext['store']['hidden_extensions'] = []) {
  return {
    store: {
      id: ids.store,
      name: 'Bistro Lumière',
      timezone_name: 'Europe/Paris',
      week_start: 1,
      hidden_modules: [],
      hidden_extensions: hiddenExtensions,
    },
    screen_saver_url: null,
    roles: [
      { id: ids.buyer, name: 'Shift lead', features_permissions: { shop: true } },
      { id: ids.cook, name: 'Cook', features_permissions: { shop: false, labels: true } },
      { id: ids.silent, name: 'Dishwasher', features_permissions: { labels: true } },
    ],
    device: {
      id: '6c1d2e3f-4a5b-4c6d-8e7f-a0b1c2d3e40b',
      store_id: ids.store,
      device_id: 'tablet-1',
      device_model: 'browser',
      name: 'Kitchen tablet',
      app_version: 'test',
      os_version: 'Linux',
      creation_timestamp: '2026-11-01T08:00:00Z',
      last_connexion: null,
      dark_mode: false,
      slow_internet_mode: false,
      audio_task_reminders: false,
      show_unscheduled_tasks: true,
      rotation_lock: false,
      prevent_screen_lock: false,
      calendar_types_order: [],
      linked_user: null,
      version: 1,
    },
    server_time: '2026-11-26T10:00:00Z',
  } satisfies DeviceContext;
}

const shop: StoreShop = {
  available: true,
  distributor_name: 'Hygiène Pro',
  items: [
    {
      id: ids.gloves,
      name: 'Nitrile gloves',
      description: 'Box of 100, size M',
      price: 12.5,
      illustration_url: 'https://cdn.example.test/gloves.jpg',
    },
    { id: ids.apron, name: 'Apron', description: '', price: 4, illustration_url: null },
    {
      id: ids.probe,
      name: 'Probe thermometer',
      description: 'Calibrated',
      price: 1234.5,
      illustration_url: null,
    },
  ],
};

type Call = { url: string; method: string; body: unknown; headers: Record<string, string> };

/** The network as a test says: an answer per call, or 'offline'; every call is recorded. */
function fakeNetwork(answer: (call: Call) => Response | 'offline') {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const call: Call = {
      url,
      method: init.method ?? 'GET',
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      headers: (init.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    const result = answer(call);
    if (result === 'offline') throw new TypeError('Failed to fetch');
    return result;
  });
  return calls;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** What the server answers an order (status 'sent': e-mailed to the distributor). */
function orderAnswer(call: Call): ShopOrder {
  const body = call.body as { lines: { item_id: string; quantity: number }[]; note: string };
  const lines = body.lines.map((line) => {
    const item = shop.items.find((candidate) => candidate.id === line.item_id)!;
    return { item_id: item.id, name: item.name, price: item.price, quantity: line.quantity };
  });
  return {
    id: ids.order,
    distributor_id: ids.distributor,
    database_id: ids.database,
    database_name: 'Bistro group',
    store_id: ids.store,
    store_name: 'Bistro Lumière',
    lines,
    total: lines.reduce((sum, line) => sum + line.price * line.quantity, 0),
    note: body.note,
    status: 'sent',
    email_to: 'orders@hygiene-pro.test',
    ordered_by: { kind: 'employee', name: 'Ana', surname: 'Lopes' },
    created_at: '2026-11-26T10:01:00.000Z',
  };
}

/** The shop listed; orders as `orders` says (offline by default). */
const shopNetwork =
  (orders: (call: Call) => Response | 'offline' = () => 'offline', answer: StoreShop = shop) =>
  (call: Call) => {
    if (call.url === '/api/device/shop' && call.method === 'GET') return json(200, answer);
    if (call.url === '/api/device/shop/orders' && call.method === 'POST') return orders(call);
    return 'offline' as const;
  };
const acceptOrders = (call: Call) => json(200, { order: orderAnswer(call) });
const posts = (calls: Call[]) => calls.filter((call) => call.method === 'POST');

function renderWithClient(ui: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>);
}

async function identify(
  roleId: string | null,
  hidden: DeviceContext['store']['hidden_extensions'] = [],
) {
  await writeValue('context', buildContext(hidden));
  await loadDevice();
  await openSession({
    employee: { ...testEmployee, role_id: roleId },
    token: 'employee-token-of-ana',
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
  });
}

const itemCard = (name: string) =>
  screen.getByRole('heading', { level: 2, name }).closest('li') as HTMLElement;
const basket = () => screen.getByRole('region', { name: 'Basket' });
const total = () => screen.getByTestId('shop-total').textContent;

beforeEach(async () => {
  fakeNetwork(() => 'offline');
  await setDeviceToken('device-token');
  await identify(ids.buyer);
});

afterEach(async () => {
  cleanup();
  await flushOutbox();
  await endSession();
  await unpair();
  vi.unstubAllGlobals();
});

describe('Shop items', () => {
  it("lists the store's orderable items with their description and unit price, with the device token", async () => {
    const calls = fakeNetwork(shopNetwork());
    renderWithClient(<ShopScreen />);

    await screen.findByRole('heading', { level: 2, name: 'Nitrile gloves' });
    const names = within(screen.getByRole('list', { name: 'Items' }))
      .getAllByRole('heading', { level: 2 })
      .map((heading) => heading.textContent);
    expect(names).toEqual(['Nitrile gloves', 'Apron', 'Probe thermometer']);
    expect(screen.getByText('From Hygiène Pro')).toBeTruthy();
    const gloves = itemCard('Nitrile gloves');
    expect(within(gloves).getByText('Box of 100, size M')).toBeTruthy();
    expect(within(gloves).getByText('€12.50 each')).toBeTruthy();
    expect(gloves.querySelector('img')?.getAttribute('src')).toBe(
      'https://cdn.example.test/gloves.jpg',
    );
    expect(within(itemCard('Probe thermometer')).getByText('€1,234.50 each')).toBeTruthy();
    expect(within(basket()).getByText('The basket is empty: choose quantities.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send the order' })).toHaveProperty('disabled', true);

    const list = calls.find((call) => call.url === '/api/device/shop');
    expect(list?.headers.authorization).toBe('Bearer device-token');
  });

  it('writes prices as each language does', () => {
    const spaces = (text: string) => text.replace(/\s/g, ' ');
    expect(spaces(formatEuros(1234.5, 'fr'))).toBe('1 234,50 €');
    expect(spaces(formatEuros(1234.5, 'de'))).toBe('1.234,50 €');
    expect(spaces(formatEuros(1234.5, 'pl'))).toBe('1234,50 €');
    expect(formatEuros(1234.5, 'en')).toBe('€1,234.50');
  });

  it('says so when the store cannot order (no distributor, or the shop hidden)', async () => {
    fakeNetwork(shopNetwork(undefined, { available: false, distributor_name: null, items: [] }));
    renderWithClient(<ShopScreen />);
    expect(await screen.findByText('The shop is not available in this store.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send the order' })).toBeNull();
  });
});

describe('The basket', () => {
  it('adds up the quantities chosen with the steppers or typed, line by line and in total', async () => {
    fakeNetwork(shopNetwork());
    const user = userEvent.setup();
    renderWithClient(<ShopScreen />);
    await screen.findByRole('heading', { level: 2, name: 'Nitrile gloves' });

    const less = screen.getByRole('button', { name: 'One less: Nitrile gloves' });
    expect(less).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'One more: Nitrile gloves' }));
    await user.click(screen.getByRole('button', { name: 'One more: Nitrile gloves' }));
    const apron = screen.getByRole('textbox', { name: 'Quantity of Apron' });
    await user.type(apron, '3x');
    expect(apron).toHaveProperty('value', '3');
    expect(screen.getByRole('textbox', { name: 'Quantity of Nitrile gloves' })).toHaveProperty(
      'value',
      '2',
    );

    const lines = within(basket())
      .getAllByRole('listitem')
      .map((line) => line.textContent);
    expect(lines).toEqual(['2 × Nitrile gloves€25.00', '3 × Apron€12.00']);
    expect(total()).toBe('€37.00');
    expect(screen.getByText('5 items · €37.00')).toBeTruthy();

    await user.click(less);
    expect(total()).toBe('€24.50');
    await user.clear(apron);
    expect(total()).toBe('€12.50');
    expect(within(basket()).getAllByRole('listitem')).toHaveLength(1);
  });

  it('keeps the basket and its note on the tablet across a reload, until the order is made', async () => {
    fakeNetwork(shopNetwork());
    const user = userEvent.setup();
    renderWithClient(<ShopScreen />);
    await user.click(await screen.findByRole('button', { name: 'One more: Apron' }));
    await user.type(screen.getByRole('textbox', { name: 'Quantity of Probe thermometer' }), '2');
    await user.type(
      screen.getByRole('textbox', { name: 'Note for the distributor (optional)' }),
      'Before Friday',
    );
    await waitFor(async () =>
      expect(await readBasket(testEmployee.id)).toEqual({
        quantities: { [ids.apron]: 1, [ids.probe]: 2 },
        note: 'Before Friday',
      }),
    );

    // The app starts again (a new query cache): the basket is read back from the tablet.
    cleanup();
    renderWithClient(<ShopScreen />);
    const apron = await screen.findByRole('textbox', { name: 'Quantity of Apron' });
    await waitFor(() => expect(apron).toHaveProperty('value', '1'));
    expect(screen.getByRole('textbox', { name: 'Quantity of Probe thermometer' })).toHaveProperty(
      'value',
      '2',
    );
    expect(
      screen.getByRole('textbox', { name: 'Note for the distributor (optional)' }),
    ).toHaveProperty('value', 'Before Friday');
    expect(total()).toBe('€2,473.00');
  });
});

describe('Sending an order', () => {
  it("sends the lines and the note with an idempotency key and the employee's token, once, after the confirmation", async () => {
    const calls = fakeNetwork(shopNetwork(acceptOrders));
    const user = userEvent.setup();
    renderWithClient(<ShopScreen />);
    await user.click(await screen.findByRole('button', { name: 'One more: Nitrile gloves' }));
    await user.click(screen.getByRole('button', { name: 'One more: Nitrile gloves' }));
    await user.type(screen.getByRole('textbox', { name: 'Quantity of Apron' }), '3');
    await user.type(
      screen.getByRole('textbox', { name: 'Note for the distributor (optional)' }),
      '  Leave at the back door ',
    );

    await user.click(screen.getByRole('button', { name: 'Send the order' }));
    const dialog = screen.getByRole('dialog', { name: 'Send this order?' });
    expect(within(dialog).getByText('5 items for €37.00, to Hygiène Pro.')).toBeTruthy();
    expect(within(dialog).getByText('Note: Leave at the back door')).toBeTruthy();
    expect(posts(calls)).toEqual([]);
    await user.dblClick(within(dialog).getByRole('button', { name: 'Send' }));

    expect(
      await screen.findByText(
        'Order sent (5 items, €37.00). The distributor receives it by e-mail.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    const sent = posts(calls);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe('/api/device/shop/orders');
    expect(sent[0]?.headers['x-employee-token']).toBe('employee-token-of-ana');
    expect(sent[0]?.headers.authorization).toBe('Bearer device-token');
    expect(sent[0]?.body).toEqual({
      idempotency_key: expect.any(String),
      lines: [
        { item_id: ids.gloves, quantity: 2 },
        { item_id: ids.apron, quantity: 3 },
      ],
      note: 'Leave at the back door',
    });
    // The body is what the server's contract accepts.
    expect(createShopOrderBodySchema.safeParse(sent[0]?.body).success).toBe(true);

    // The basket is emptied, on the tablet too.
    expect(within(basket()).getByText('The basket is empty: choose quantities.')).toBeTruthy();
    expect(total()).toBe('€0.00');
    await waitFor(async () =>
      expect(await readBasket(testEmployee.id)).toEqual({ quantities: {}, note: '' }),
    );
    expect(await outboxRecords()).toEqual([]);
  });

  it('keeps an order made during a network cut and sends it once, with its key, when the network returns', async () => {
    let calls = fakeNetwork(shopNetwork());
    const user = userEvent.setup();
    renderWithClient(<ShopScreen />);
    await user.type(await screen.findByRole('textbox', { name: 'Quantity of Apron' }), '4');
    await user.click(screen.getByRole('button', { name: 'Send the order' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Send' }));

    expect(
      await screen.findByText(
        'Order kept on this tablet (4 items, €16.00): it will be sent as soon as the connection returns.',
      ),
    ).toBeTruthy();
    const kept = await outboxRecords();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      kind: 'shop-order',
      path: '/device/shop/orders',
      state: 'waiting',
      employee_token: 'employee-token-of-ana',
      label: 'Shop order (4 items)',
      body: { lines: [{ item_id: ids.apron, quantity: 4 }], note: '' },
    });
    const key = kept[0]!.idempotency_key;
    expect(kept[0]?.body.idempotency_key).toBe(key);
    // Every try during the cut carried the same key (the server would record it once).
    const tries = posts(calls);
    expect(tries.length).toBeGreaterThan(0);
    for (const attempt of tries)
      expect((attempt.body as { idempotency_key: string }).idempotency_key).toBe(key);
    // The basket is already free for the next order.
    expect(within(basket()).getByText('The basket is empty: choose quantities.')).toBeTruthy();

    calls = fakeNetwork(shopNetwork(acceptOrders));
    await networkReturned();

    expect(
      await screen.findByText(
        'Order sent (4 items, €16.00). The distributor receives it by e-mail.',
      ),
    ).toBeTruthy();
    expect(await outboxRecords()).toEqual([]);
    await flushOutbox();
    expect(posts(calls).map((call) => call.body)).toEqual([kept[0]!.body]);
  });

  it('shows a refusal of the server with its reason, the order kept in the records', async () => {
    fakeNetwork(
      shopNetwork(() =>
        json(400, { error: { code: 'shop/unknown-item', message: 'An item is not in the shop.' } }),
      ),
    );
    const user = userEvent.setup();
    renderWithClient(<ShopScreen />);
    await user.click(await screen.findByRole('button', { name: 'One more: Apron' }));
    await user.click(screen.getByRole('button', { name: 'Send the order' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Send' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'The order was refused: An item of this order is no longer in the shop.',
    );
    expect((await outboxRecords())[0]).toMatchObject({ kind: 'shop-order', state: 'refused' });
  });
});

describe('Who sees the shop', () => {
  function MenuEntry() {
    return useIsShopShown() ? <button type="button">Shop</button> : <span>no shop entry</span>;
  }

  it("shows the menu entry when the employee's role grants the shop and the store can order", async () => {
    fakeNetwork(shopNetwork());
    renderWithClient(<MenuEntry />);
    expect(await screen.findByRole('button', { name: 'Shop' })).toBeTruthy();
  });

  it.each([
    ['a role that refuses the shop', ids.cook],
    ['a role that does not mention the shop', ids.silent],
    ['no role', null],
  ])('hides it, and the screen refuses, for an employee with %s', async (_case, roleId) => {
    await identify(roleId);
    const calls = fakeNetwork(shopNetwork());
    renderWithClient(
      <>
        <MenuEntry />
        <ShopScreen />
      </>,
    );
    expect(screen.getByText('no shop entry')).toBeTruthy();
    expect(screen.getByText('Your role does not allow ordering from the shop.')).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 2, name: 'Nitrile gloves' })).toBeNull();
    // Not even asked for.
    expect(calls.filter((call) => call.url === '/api/device/shop')).toEqual([]);
  });

  it('hides it when the store or its database hides the shop extension', async () => {
    await identify(ids.buyer, ['shop']);
    fakeNetwork(shopNetwork());
    renderWithClient(
      <>
        <MenuEntry />
        <ShopScreen />
      </>,
    );
    expect(screen.getByText('no shop entry')).toBeTruthy();
    expect(screen.getByText('The shop is not available in this store.')).toBeTruthy();
  });

  it('hides it when the server says the store cannot order', async () => {
    fakeNetwork(shopNetwork(undefined, { available: false, distributor_name: null, items: [] }));
    renderWithClient(
      <>
        <MenuEntry />
        <ShopScreen />
      </>,
    );
    await screen.findByText('The shop is not available in this store.');
    expect(screen.getByText('no shop entry')).toBeTruthy();
  });
});
