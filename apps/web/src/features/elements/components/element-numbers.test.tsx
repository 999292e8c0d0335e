import type { Element } from '@mise/shared/catalogue/schemas';
import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories';
import { mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { buildElement } from '../test/build-element';

/** A server holding one database element; PATCH answers what it stored. */
function serveElement(initial: Element) {
  const server = { element: initial };
  const path = `/api/databaseElements/${initial.id}`;
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
    [`GET ${path}`]: () => ({ body: { element: server.element } }),
    [`GET /api/databases/${initial.database_id}/elementTypes`]: { body: { items: [] } },
    [`PATCH ${path}`]: ({ body }) => {
      const { version, ...fields } = body as { version: number };
      server.element = { ...server.element, ...fields, version: version + 1 };
      return { body: { element: server.element } };
    },
  });
  return { server, api, path, ...renderApp(`/databaseElement?id=${initial.id}`) };
}

/** Selects the whole text of the field with a triple click, and types over the selection. */
async function typeOverSelection(user: UserEvent, input: HTMLInputElement, text: string) {
  await user.tripleClick(input);
  expect([input.selectionStart, input.selectionEnd]).toEqual([0, input.value.length]);
  await user.keyboard(text);
}

describe('numeric fields of the element editor (issue 13)', { timeout: 30_000 }, () => {
  it('keeps a minus sign typed over a selected maximum and saves −25…−15 °C', async () => {
    const freezer = buildElement({ minimum_temperature: -25, maximum_temperature: -18 });
    const { server, api, path, user } = serveElement(freezer);
    const maximum = (await screen.findByTestId('field-maximum_temperature')) as HTMLInputElement;
    expect(maximum.value).toBe('-18 °C');

    await typeOverSelection(user, maximum, '-15');
    expect(maximum.value).toBe('-15 °C');
    await user.click(screen.getByTestId('element-save'));

    expect(await screen.findByText('Saved successfully.')).toBeTruthy();
    expect(api.callsTo('PATCH', path)[0]?.body).toMatchObject({ maximum_temperature: -15 });
    expect(server.element.maximum_temperature).toBe(-15);
    expect(server.element.minimum_temperature).toBe(-25);
    await waitFor(() => expect(maximum.value).toBe('-15 °C'));
  });

  it('keeps a minus sign typed over a selected minimum, and one typed into an empty field', async () => {
    const freezer = buildElement({ minimum_temperature: -25, maximum_temperature: -18 });
    const { server, api, path, user } = serveElement(freezer);
    const minimum = (await screen.findByTestId('field-minimum_temperature')) as HTMLInputElement;

    await typeOverSelection(user, minimum, '-22');
    expect(minimum.value).toBe('-22 °C');

    await user.click(screen.getByTestId('element-tab-temperature_control'));
    const reheating = (await screen.findByTestId(
      'field-reheating_temperature',
    )) as HTMLInputElement;
    await user.clear(reheating);
    await user.type(reheating, '-3.5');
    expect(reheating.value).toBe('-3.5 °C');

    await user.click(screen.getByTestId('element-save'));
    expect(await screen.findByText('Saved successfully.')).toBeTruthy();
    expect(api.callsTo('PATCH', path)[0]?.body).toMatchObject({
      minimum_temperature: -22,
      reheating_temperature: -3.5,
    });
    expect(server.element.minimum_temperature).toBe(-22);
    expect(server.element.maximum_temperature).toBe(-18);
  });
});
