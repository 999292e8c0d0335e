import type { PunchCards, PunchEntry } from '@mise/shared/people/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { currentWeek } from '../../../shared/format/store-clock';
import { selectionStorageKey } from '../../../shared/selection/use-selection';
import { captureEntryParameters } from '../../../shared/session/app-session';
import { setClockTime } from '../../../test/clock-time';
import { buildId, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

/** The page is a lazy route: its first render waits for its modules, slow on a busy machine. */
const pageLoad = { timeout: 10_000 };

const storeId = buildId();
const lea = { id: buildId(), name: 'Léa', surname: 'Petit', role_name: 'Cuisinière' };
const hugo = { id: buildId(), name: 'Hugo', surname: 'Bernard', role_name: null };
const week = { start: '2026-11-16', end: '2026-11-22' };
const path = `/punchCards?store=${storeId}&start=${week.start}&end=${week.end}`;

function buildEntry(
  employeeId: string,
  isIn: boolean,
  timestamp: string,
  overrides: Partial<PunchEntry> = {},
): PunchEntry {
  return {
    id: buildId(),
    employee_id: employeeId,
    is_in: isIn,
    timestamp,
    timestamp_modified: null,
    day: timestamp.slice(0, 10),
    source: 'device',
    selfie_url: null,
    incoherent: false,
    version: 1,
    ...overrides,
  };
}

// Paris is UTC+1 in November (the tests' browser is in New York): 07:00Z shows 08:00.
const leaMondayIn = buildEntry(lea.id, true, '2026-11-16T07:00:00Z');
const leaMondayOut = buildEntry(lea.id, false, '2026-11-16T11:30:00Z');
const leaTuesdayIn = buildEntry(lea.id, true, '2026-11-17T08:00:00Z');
const leaTuesdayOut = buildEntry(lea.id, false, '2026-11-17T11:00:00Z', {
  timestamp_modified: '2026-11-17T11:00:00Z',
  version: 3,
});
const hugoIn = buildEntry(hugo.id, true, '2026-11-18T08:00:00Z');
const hugoOut = buildEntry(hugo.id, false, '2026-11-18T16:00:00Z');
const coherentEntries = [leaMondayIn, leaMondayOut, leaTuesdayIn, leaTuesdayOut, hugoIn, hugoOut];

function buildPunchCards(overrides: Partial<PunchCards> = {}): PunchCards {
  return {
    store: { id: storeId, name: 'Bistro Opéra', timezone_name: 'Europe/Paris' },
    start: week.start,
    end: week.end,
    employees: [lea, hugo],
    entries: coherentEntries,
    editable: true,
    loaded_at: '2026-11-22T09:00:00.000Z',
    ...overrides,
  };
}

function renderPunchCards(
  cards: PunchCards | ((query: URLSearchParams) => PunchCards),
  options: { path?: string; extra?: Record<string, MockHandler>; role?: 'admin' | 'manager' } = {},
) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: options.role ?? 'admin' }) } },
    [`GET /api/stores/${storeId}/punchCards`]: (call) => ({
      body: typeof cards === 'function' ? cards(call.query) : cards,
    }),
    ...options.extra,
  });
  const puts = () => api.callsTo('PUT', `/api/stores/${storeId}/punchCards`);
  const gets = () => api.callsTo('GET', `/api/stores/${storeId}/punchCards`);
  return { ...renderApp(options.path ?? path), api, puts, gets };
}

const row = (employeeId: string) => {
  const found = screen
    .getAllByTestId('punch-row')
    .find((item) => item.getAttribute('data-employee-id') === employeeId);
  if (!found) throw new Error(`no row for ${employeeId}`);
  return found;
};

const cell = (employeeId: string, day: string) => {
  const found = within(row(employeeId))
    .getAllByTestId('punch-cell')
    .find((item) => item.getAttribute('data-day') === day);
  if (!found) throw new Error(`no cell for ${employeeId} on ${day}`);
  return found;
};

const badges = (employeeId: string, day: string) =>
  within(cell(employeeId, day))
    .queryAllByTestId('punch-badge')
    .map((badge) => ({
      time: badge.textContent,
      isIn: badge.getAttribute('data-entry-in'),
      isIncoherent: badge.getAttribute('data-incoherent'),
    }));

/** Replaces XMLHttpRequest for the PDF download: each request answers `respond()`. */
function stubDownloads(respond: () => { status: number; contentType: string; body: string }) {
  const requests: { url: string; body: unknown }[] = [];
  class FakeXhr {
    status = 0;
    response: unknown = null;
    responseType = '';
    withCredentials = false;
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    onprogress: ((event: ProgressEvent) => void) | null = null;
    private url = '';
    private contentType = '';
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader() {}
    getResponseHeader(name: string) {
      return name.toLowerCase() === 'content-type' ? this.contentType : null;
    }
    abort() {
      this.onabort?.();
    }
    send(body: string | null) {
      requests.push({ url: this.url, body: body ? JSON.parse(body) : null });
      const answer = respond();
      this.status = answer.status;
      this.contentType = answer.contentType;
      this.response = new Blob([answer.body], { type: answer.contentType });
      setTimeout(() => this.onload?.(), 0);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return requests;
}

describe('punch cards page', { timeout: 30_000 }, () => {
  it('lists the active employees with a column per day, paired badges and totals', async () => {
    const { gets } = renderPunchCards(buildPunchCards());

    await screen.findAllByTestId('punch-row', {}, pageLoad);
    expect(gets()[0]?.query.get('start')).toBe(week.start);
    expect(gets()[0]?.query.get('end')).toBe(week.end);
    expect(screen.getByTestId('page-subtitle').textContent).toBe('Bistro Opéra');
    expect(screen.getAllByTestId('punch-row').map((item) => item.textContent)).toEqual([
      expect.stringContaining('Léa PetitCuisinière'),
      expect.stringContaining('Hugo BernardNo role'),
    ]);
    expect(
      within(row(lea.id))
        .getAllByTestId('punch-cell')
        .map((item) => item.getAttribute('data-day')),
    ).toEqual([
      '2026-11-16',
      '2026-11-17',
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
    ]);
    expect(screen.getByRole('columnheader', { name: '16/11' })).toBeTruthy();
    // The store's clock (Paris), not the browser's (New York); entrance first.
    expect(badges(lea.id, '2026-11-16')).toEqual([
      { time: '08:00', isIn: 'true', isIncoherent: 'false' },
      { time: '12:30', isIn: 'false', isIncoherent: 'false' },
    ]);
    expect(within(cell(lea.id, '2026-11-16')).getAllByTestId('punch-pair')).toHaveLength(1);
    expect(badges(hugo.id, '2026-11-18').map((badge) => badge.time)).toEqual(['09:00', '17:00']);
    expect(badges(hugo.id, '2026-11-19')).toEqual([]);
    // Léa: 4.5 h + 3 h; Hugo: 8 h; all: 15.5 h.
    expect(within(row(lea.id)).getByTestId('punch-total').textContent).toBe('7.50 h');
    expect(within(row(hugo.id)).getByTestId('punch-total').textContent).toBe('8 h');
    expect(screen.getByTestId('punch-footer-total').textContent).toBe('15.50 h');
  });

  it('refuses to save an incoherent card, then saves the whole range once the extra entry is deleted', async () => {
    const extra = buildEntry(hugo.id, true, '2026-11-18T10:00:00Z');
    const afterSave = buildPunchCards({
      entries: coherentEntries.map((entry) => ({ ...entry, version: entry.version + 1 })),
    });
    const { user, puts, gets } = renderPunchCards(
      buildPunchCards({ entries: [...coherentEntries, extra] }),
      { extra: { [`PUT /api/stores/${storeId}/punchCards`]: { body: afterSave } } },
    );
    await screen.findAllByTestId('punch-row', {}, pageLoad);

    expect(badges(hugo.id, '2026-11-18')).toEqual([
      { time: '09:00', isIn: 'true', isIncoherent: 'false' },
      { time: '11:00', isIn: 'true', isIncoherent: 'true' },
      { time: '17:00', isIn: 'false', isIncoherent: 'false' },
    ]);
    const flagged = within(cell(hugo.id, '2026-11-18')).getAllByTestId('punch-badge')[1];
    if (!flagged) throw new Error('flagged badge expected');
    expect(flagged.getAttribute('style') ?? '').toContain('--mantine-color-red-6');

    await user.click(screen.getByTestId('punch-save'));
    expect((await screen.findByTestId('notice-error')).textContent).toContain(
      'There is an incoherence in the punch cards. Please fix it before saving.',
    );
    expect(puts()).toHaveLength(0);

    await user.click(flagged);
    await screen.findByTestId('punch-edit-dialog');
    expect(screen.getByTestId('punch-edit-original').textContent).toBe('18/11/2026 11:00');
    await user.click(screen.getByTestId('punch-edit-delete'));
    await waitFor(() => expect(screen.queryByTestId('punch-edit-time')).toBeNull());
    expect(badges(hugo.id, '2026-11-18').map((badge) => badge.isIncoherent)).toEqual([
      'false',
      'false',
    ]);

    await user.click(screen.getByTestId('punch-save'));
    expect((await screen.findByTestId('notice-success')).textContent).toContain(
      'The punch cards have been saved',
    );
    expect(puts()).toHaveLength(1);
    expect(puts()[0]?.headers.get('x-csrf-token')).toBe('csrf-1');
    const saved = (entry: PunchEntry) => ({
      id: entry.id,
      version: entry.version,
      employee_id: entry.employee_id,
      is_in: entry.is_in,
      timestamp_modified: entry.timestamp_modified,
    });
    expect(puts()[0]?.body).toEqual({
      start: week.start,
      end: week.end,
      loaded_at: '2026-11-22T09:00:00.000Z',
      entries: [
        saved(leaMondayIn),
        saved(leaMondayOut),
        saved(leaTuesdayIn),
        saved(leaTuesdayOut),
        saved(hugoIn),
        saved(hugoOut),
      ],
    });
    // The saved range answered replaces the edits: nothing left to save, no second read.
    await waitFor(() =>
      expect(screen.getByTestId('punch-save').getAttribute('data-dirty')).toBe('false'),
    );
    expect(badges(hugo.id, '2026-11-18').map((badge) => badge.time)).toEqual(['09:00', '17:00']);
    expect(gets()).toHaveLength(1);
  });

  it('adds entries alternating in and out, one minute after the day’s last, and saves them with their time', async () => {
    const { user, puts, gets } = renderPunchCards(buildPunchCards(), {
      extra: { [`PUT /api/stores/${storeId}/punchCards`]: { body: { ok: true } } },
    });
    await screen.findAllByTestId('punch-row', {}, pageLoad);

    const add = () => within(cell(lea.id, '2026-11-17')).getByTestId('punch-add');
    await user.click(add());
    expect(badges(lea.id, '2026-11-17')).toEqual([
      { time: '09:00', isIn: 'true', isIncoherent: 'false' },
      { time: '12:00', isIn: 'false', isIncoherent: 'false' },
      { time: '12:01', isIn: 'true', isIncoherent: 'false' },
    ]);
    await user.click(add());
    expect(badges(lea.id, '2026-11-17').slice(2)).toEqual([
      { time: '12:01', isIn: 'true', isIncoherent: 'false' },
      { time: '12:02', isIn: 'false', isIncoherent: 'false' },
    ]);
    expect(within(cell(lea.id, '2026-11-17')).getAllByTestId('punch-pair')).toHaveLength(2);

    // An added entry has no original time.
    const added = within(cell(lea.id, '2026-11-17')).getAllByTestId('punch-badge')[3];
    if (!added) throw new Error('added badge expected');
    await user.click(added);
    const original = await screen.findByTestId('punch-edit-original');
    expect(original.textContent).toBe('No value');
    await user.click(screen.getByTestId('punch-edit-close'));

    // An empty day starts with an entrance.
    await user.click(within(cell(hugo.id, '2026-11-20')).getByTestId('punch-add'));
    expect(badges(hugo.id, '2026-11-20').map((badge) => badge.isIn)).toEqual(['true']);
    await user.click(within(cell(hugo.id, '2026-11-20')).getByTestId('punch-badge'));
    await user.click(await screen.findByTestId('punch-edit-delete'));
    await waitFor(() => expect(badges(hugo.id, '2026-11-20')).toEqual([]));

    await user.click(screen.getByTestId('punch-save'));
    await screen.findByTestId('notice-success');
    // An answer without the range: the range is read again.
    await waitFor(() => expect(gets()).toHaveLength(2));
    const body = puts()[0]?.body as { entries: Record<string, unknown>[] };
    expect(body.entries.filter((entry) => !('id' in entry))).toEqual([
      { employee_id: lea.id, is_in: true, timestamp: '2026-11-17T11:01:00.000Z' },
      { employee_id: lea.id, is_in: false, timestamp: '2026-11-17T11:02:00.000Z' },
    ]);
  });

  it('refuses a time not after the previous entry, then corrects the entry', async () => {
    const { user } = renderPunchCards(buildPunchCards());
    await screen.findAllByTestId('punch-row', {}, pageLoad);

    const exit = within(cell(lea.id, '2026-11-16')).getAllByTestId('punch-badge')[1];
    if (!exit) throw new Error('exit badge expected');
    await user.click(exit);
    const time = await screen.findByTestId('punch-edit-time');
    expect((time as HTMLInputElement).value).toBe('12:30');
    expect(screen.getByTestId('punch-edit-original').textContent).toBe('16/11/2026 12:30');

    setClockTime('punch-edit-time', '07:30');
    await user.click(screen.getByTestId('punch-edit-apply'));
    expect(
      await screen.findByText('The new timestamp must be after the previous entry'),
    ).toBeTruthy();
    expect(screen.getByTestId('punch-edit-dialog')).toBeTruthy();
    expect(badges(lea.id, '2026-11-16').map((badge) => badge.time)).toEqual(['08:00', '12:30']);
    expect(screen.getByTestId('punch-save').getAttribute('data-dirty')).toBe('false');

    setClockTime('punch-edit-time', '13:00');
    await user.click(screen.getByTestId('punch-edit-apply'));
    await waitFor(() => expect(screen.queryByTestId('punch-edit-time')).toBeNull());
    expect(badges(lea.id, '2026-11-16').map((badge) => badge.time)).toEqual(['08:00', '13:00']);
    expect(within(row(lea.id)).getByTestId('punch-total').textContent).toBe('8 h');
    expect(screen.getByTestId('punch-save').getAttribute('data-dirty')).toBe('true');
  });

  it('shows the server’s refusal of a save', async () => {
    const { user, puts } = renderPunchCards(buildPunchCards(), {
      extra: {
        [`PUT /api/stores/${storeId}/punchCards`]: apiError(409, 'conflict/stale-version'),
      },
    });
    await screen.findAllByTestId('punch-row', {}, pageLoad);
    await user.click(within(cell(hugo.id, '2026-11-19')).getByTestId('punch-add'));
    await user.click(within(cell(hugo.id, '2026-11-19')).getByTestId('punch-add'));
    await user.click(screen.getByTestId('punch-save'));

    expect((await screen.findByTestId('notice-error')).textContent).toContain(
      'This record was changed by someone else.',
    );
    expect(puts()).toHaveLength(1);
    // The edits stay on screen.
    expect(badges(hugo.id, '2026-11-19')).toHaveLength(2);
  });

  it('exports the CSV of the table on the store’s clock', async () => {
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:punch';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloads.push(this.download);
    });
    const { user } = renderPunchCards(
      buildPunchCards({ entries: [leaMondayIn, leaMondayOut, hugoIn] }),
    );
    await screen.findAllByTestId('punch-row', {}, pageLoad);

    await user.click(screen.getByTestId('punch-csv'));
    expect(downloads).toEqual(['punch_cards.csv']);
    const [blob] = blobs;
    if (!blob) throw new Error('no CSV');
    expect(blob.type).toBe('text/csv;charset=utf-8');
    const text = await blob.text();
    expect(text.split('\r\n')).toEqual([
      'Etablissement;Employee;Date;Time;Arrivée',
      'Bistro Opéra;Léa Petit;16/11/2026;08:00;Oui',
      'Bistro Opéra;Léa Petit;16/11/2026;12:30;Non',
      'Bistro Opéra;Hugo Bernard;18/11/2026;09:00;Oui',
      '',
    ]);
  });

  it('asks for the PDF of the range and says when it fails', async () => {
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:punch');
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloads.push(this.download);
    });
    let answer = { status: 200, contentType: 'application/pdf', body: '%PDF-1.7' };
    const requests = stubDownloads(() => answer);
    const { user } = renderPunchCards(buildPunchCards());
    await screen.findAllByTestId('punch-row', {}, pageLoad);

    await user.click(screen.getByTestId('punch-pdf'));
    await waitFor(() => expect(downloads).toEqual(['punch_cards.pdf']));
    expect(requests[0]).toEqual({
      url: '/api/pdf/punch_cards',
      body: { storeId, start: week.start, end: week.end, lang: 'en' },
    });

    answer = {
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'internal', message: 'boom' } }),
    };
    await user.click(screen.getByTestId('punch-pdf'));
    expect((await screen.findByTestId('notice-error')).textContent).toContain(
      'Failed to download the PDF. Please try again later.',
    );
    expect(downloads).toHaveLength(1);
  });

  it('loads the store’s current week by default and reads it again on Search', async () => {
    const { user, gets } = renderPunchCards(
      (query) =>
        buildPunchCards({
          start: query.get('start') ?? '',
          end: query.get('end') ?? '',
          entries: [],
        }),
      { path: `/punchCards?store=${storeId}` },
    );
    await screen.findAllByTestId('punch-row', {}, pageLoad);
    const expected = currentWeek('Europe/Paris');
    expect([gets()[0]?.query.get('start'), gets()[0]?.query.get('end')]).toEqual([
      expected.start,
      expected.end,
    ]);
    expect(within(row(lea.id)).getAllByTestId('punch-cell')).toHaveLength(7);
    expect(screen.getByTestId('punch-footer-total').textContent).toBe('0 h');

    await user.click(screen.getByTestId('punch-search'));
    await waitFor(() => expect(gets()).toHaveLength(2));
  });

  it('is read-only without edit rights: no add buttons, no save, badges do not open', async () => {
    const { user } = renderPunchCards(buildPunchCards({ editable: false }), { role: 'manager' });
    await screen.findAllByTestId('punch-row', {}, pageLoad);

    expect(screen.getByTestId('punch-read-only')).toBeTruthy();
    expect(screen.queryAllByTestId('punch-add')).toHaveLength(0);
    expect(screen.queryByTestId('punch-save')).toBeNull();
    const [badge] = within(cell(lea.id, '2026-11-16')).getAllByTestId('punch-badge');
    if (!badge) throw new Error('badge expected');
    await user.click(badge);
    expect(screen.queryByTestId('punch-edit-time')).toBeNull();
  });

  it('asks to choose a store when none is selected, with the selection popup button', async () => {
    const { user, gets } = renderPunchCards(buildPunchCards(), { path: '/punchCards' });
    expect((await screen.findByTestId('punch-no-store', {}, pageLoad)).textContent).toContain(
      'Choose a store to see its punch cards.',
    );
    expect(gets()).toHaveLength(0);
    await user.click(screen.getByTestId('punch-select-store'));
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });

  it('takes the store chosen in the selection popup', async () => {
    window.localStorage.setItem(
      selectionStorageKey,
      JSON.stringify({ kind: 'store', id: storeId, name: 'Bistro Opéra' }),
    );
    const { gets } = renderPunchCards(buildPunchCards(), {
      path: `/punchCards?start=${week.start}&end=${week.end}`,
    });
    await screen.findAllByTestId('punch-row', {}, pageLoad);
    expect(gets()).toHaveLength(1);
  });

  it('a tablet link with store_id opens that store, before the selection (entry rule)', async () => {
    window.localStorage.setItem(
      selectionStorageKey,
      JSON.stringify({ kind: 'store', id: buildId(), name: 'Autre magasin' }),
    );
    captureEntryParameters({ pathname: '/', search: `?page=punchCards&store_id=${storeId}` });
    const { gets, router } = renderPunchCards(buildPunchCards(), { path: '/' });
    await screen.findAllByTestId('punch-row', {}, pageLoad);
    expect(router.state.location.pathname).toBe('/punchCards');
    expect(gets()).toHaveLength(1);
    // The spec hides no punch-card export for a custom store id (only the history PDF).
    expect(screen.getByTestId('punch-csv')).toBeTruthy();
    expect(screen.getByTestId('punch-pdf')).toBeTruthy();
  });

  it('writes an employee named like a formula as text in the CSV', async () => {
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:punch';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const mallory = {
      id: buildId(),
      name: '=HYPERLINK("http://evil.example")',
      surname: 'X',
      role_name: null,
    };
    const { user } = renderPunchCards(
      buildPunchCards({
        employees: [mallory],
        entries: [buildEntry(mallory.id, true, '2026-11-16T07:00:00Z')],
      }),
    );
    await screen.findAllByTestId('punch-row', {}, pageLoad);
    await user.click(screen.getByTestId('punch-csv'));
    const text = await blobs[0]!.text();
    expect(text.split('\r\n')[1]).toBe(
      `Bistro Opéra;"'=HYPERLINK(""http://evil.example"") X";16/11/2026;08:00;Oui`,
    );
  });
});
