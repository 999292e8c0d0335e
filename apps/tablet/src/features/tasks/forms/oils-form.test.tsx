import { oilsResultSchema, submitResultBodySchema } from '@mise/shared/tasks/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  buildElement,
  buildTask,
  endSession,
  openTestSession,
  outboxRecords,
  renderWithData,
  storeElementIds,
  stubOffline,
  taskElementOf,
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

const fryer = buildElement({
  id: storeElementIds.fryer,
  name: 'Fryer 1',
  maximum_polarity: 24,
  oils_require_picture: true,
});
const task = buildTask({ module: 'oils', name: 'Fryer oil', elements: [taskElementOf(fryer)] });

describe('Oils form', () => {
  it('shows a polarity above its maximum in red, asks for the required picture, and saves the checks', async () => {
    const user = userEvent.setup();
    renderWithData(<TaskScreen taskId={task.id} />, { tasks: [task], elements: [fryer] });
    const card = await screen.findByRole('region', { name: 'Fryer 1' });
    expect(within(card).getByText('Maximum 24 %')).toBeTruthy();

    await user.click(
      within(card).getByRole('button', { name: /^Polarity \(optional\) – Fryer 1:/ }),
    );
    expect(within(card).queryByRole('button', { name: 'Minus' })).toBeNull();
    await user.click(within(card).getByRole('button', { name: '2' }));
    await user.click(within(card).getByRole('button', { name: '4' }));
    expect(
      within(card).queryByText('Polarity above the maximum: the oil must be changed.'),
    ).toBeNull();
    await user.click(within(card).getByRole('button', { name: 'Decimal point' }));
    await user.click(within(card).getByRole('button', { name: '5' }));
    expect(
      within(card).getByText('Polarity above the maximum: the oil must be changed.'),
    ).toBeTruthy();
    expect(
      within(card)
        .getByRole('textbox', { name: 'Polarity (optional) – Fryer 1' })
        .getAttribute('aria-invalid'),
    ).toBe('true');
    await user.click(within(card).getByRole('button', { name: 'OK' }));

    await user.click(within(card).getByRole('button', { name: 'Oil filtered – Fryer 1' }));
    await user.click(within(card).getByRole('button', { name: 'Cleaned – Fryer 1' }));
    await user.click(within(card).getByRole('button', { name: 'Cleaned – Fryer 1' }));
    expect(
      within(card).getByRole('button', { name: 'Cleaned – Fryer 1' }).getAttribute('aria-pressed'),
    ).toBe('false');

    await user.click(
      within(card).getByRole('button', { name: /^Temperature \(optional\) – Fryer 1:/ }),
    );
    for (const key of ['1', '7', '5'])
      await user.click(within(card).getByRole('button', { name: key }));
    await user.click(within(card).getByRole('button', { name: 'OK' }));

    const send = screen.getByRole('button', { name: 'Send' });
    expect(screen.getByText('Fryer 1: a picture is required.')).toBeTruthy();
    expect(send).toHaveProperty('disabled', true);
    await user.click(within(card).getByRole('button', { name: 'Take a picture: Fryer 1' }));
    await user.click(screen.getByRole('button', { name: 'Fake shutter' }));
    await within(card).findByRole('img', { name: 'Picture 1: Fryer 1' });
    await user.click(send);

    await waitFor(async () => expect(await outboxRecords()).toHaveLength(1));
    const [record] = await outboxRecords();
    const result = oilsResultSchema.parse(submitResultBodySchema.parse(record!.body).result);
    expect(result.entries).toHaveLength(1);
    expect(result.entries[0]).toMatchObject({
      element: fryer.id,
      cleaned: false,
      oil_changed: false,
      oil_filtered: true,
      filter_changed: false,
      polarity: 24.5,
      temperature: 175,
    });
    expect(result.entries[0]!.pictures).toHaveLength(1);
  });
});
