import { submitResultBodySchema, temperaturesResultSchema } from '@mise/shared/tasks/schemas';
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

const fridge = buildElement({
  id: storeElementIds.fridge,
  name: 'Dairy fridge',
  minimum_temperature: 0,
  maximum_temperature: 4,
});
const coldRoom = buildElement({
  id: storeElementIds.coldRoom,
  name: 'Cold room',
  minimum_temperature: -2,
  maximum_temperature: 3,
  temperature_require_picture: true,
});
const task = buildTask({
  module: 'temperatures',
  name: 'Fridges at opening',
  elements: [taskElementOf(fridge), taskElementOf(coldRoom)],
});

const sendButton = () => screen.getByRole('button', { name: 'Send' });

async function typeTemperature(
  user: ReturnType<typeof userEvent.setup>,
  element: string,
  keys: string[],
) {
  await user.click(screen.getByRole('button', { name: new RegExp(`^Temperature – ${element}:`) }));
  for (const key of keys) await user.click(screen.getByRole('button', { name: key }));
  await user.click(screen.getByRole('button', { name: 'OK' }));
}

beforeEach(async () => {
  stubOffline();
  await openTestSession();
});
afterEach(async () => {
  await endSession();
  vi.unstubAllGlobals();
});

describe('Temperatures form', () => {
  it('turns an out-of-range reading red, blocks sending until a corrective action is chosen, then saves one record', async () => {
    const user = userEvent.setup();
    renderWithData(<TaskScreen taskId={task.id} />, {
      tasks: [task],
      elements: [fridge, coldRoom],
    });

    const fridgeCard = await screen.findByRole('region', { name: 'Dairy fridge' });
    expect(within(fridgeCard).getByText('Between 0 °C and 4 °C')).toBeTruthy();
    await typeTemperature(user, 'Dairy fridge', ['9']);
    expect(within(fridgeCard).getByText('Out of range')).toBeTruthy();
    expect(fridgeCard.getAttribute('data-out-of-range')).toBe('true');
    expect(
      within(fridgeCard)
        .getByRole('button', { name: /^Temperature – Dairy fridge: 9/ })
        .getAttribute('data-invalid'),
    ).toBe('true');

    await typeTemperature(user, 'Cold room', ['Minus', '1']);
    const coldRoomCard = screen.getByRole('region', { name: 'Cold room' });
    expect(coldRoomCard.getAttribute('data-out-of-range')).toBeNull();
    expect(sendButton()).toHaveProperty('disabled', true);
    expect(screen.getByText('Dairy fridge: choose the corrective action.')).toBeTruthy();
    expect(screen.getByText('Cold room: a picture is required.')).toBeTruthy();

    await user.click(
      within(fridgeCard).getByRole('button', { name: 'Product moved to another fridge' }),
    );
    await user.click(screen.getByRole('button', { name: 'Take a picture: Cold room' }));
    await user.click(screen.getByRole('button', { name: 'Fake shutter' }));
    await screen.findByRole('img', { name: 'Picture 1: Cold room' });
    await user.type(
      within(coldRoomCard).getByRole('textbox', { name: 'Comment' }),
      'Door closed properly',
    );
    expect(screen.queryByText('Before sending:')).toBeNull();

    await user.click(sendButton());
    await screen.findByText('Saved. It will be sent as soon as possible.');
    const records = await outboxRecords();
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record!.state).toBe('waiting');
    expect(record!.path).toBe(`/device/tasks/${task.id}/result`);
    const body = submitResultBodySchema.parse(record!.body);
    expect(body.reason).toBeUndefined();
    const result = temperaturesResultSchema.parse(body.result);
    expect(result.entries).toHaveLength(2);
    const [fridgeEntry, coldRoomEntry] = result.entries;
    expect(fridgeEntry).toMatchObject({
      element: fridge.id,
      temperature: 9,
      control_temperature: null,
      comment: 'Corrective action: Product moved to another fridge',
      pictures: [],
    });
    expect(Number.isInteger(fridgeEntry!.timestamp)).toBe(true);
    expect(Math.abs(fridgeEntry!.timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(coldRoomEntry).toMatchObject({
      element: coldRoom.id,
      temperature: -1,
      comment: 'Door closed properly',
    });
    expect(coldRoomEntry!.pictures).toHaveLength(1);
    expect(coldRoomEntry!.pictures[0]!.path).toMatch(/^local:/);
  });

  it('needs a temperature for every element and takes a free-text corrective action for a control reading out of range', async () => {
    const user = userEvent.setup();
    const single = buildTask({ module: 'temperatures', elements: [taskElementOf(fridge)] });
    renderWithData(<TaskScreen taskId={single.id} />, { tasks: [single], elements: [fridge] });

    await screen.findByText('Dairy fridge: the temperature is missing.');
    expect(sendButton()).toHaveProperty('disabled', true);
    await typeTemperature(user, 'Dairy fridge', ['3']);
    expect(sendButton()).toHaveProperty('disabled', false);

    await user.click(
      screen.getByRole('button', { name: /^Control temperature \(optional\) – Dairy fridge:/ }),
    );
    await user.click(screen.getByRole('button', { name: '6' }));
    expect(screen.getByText('Out of range')).toBeTruthy();
    expect(sendButton()).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Other (describe)' }));
    expect(sendButton()).toHaveProperty('disabled', true);
    await user.type(
      screen.getByRole('textbox', { name: 'Describe what was done' }),
      'Door seal replaced',
    );
    await user.click(sendButton());

    await waitFor(async () => expect(await outboxRecords()).toHaveLength(1));
    const [record] = await outboxRecords();
    const result = temperaturesResultSchema.parse((record!.body as { result: unknown }).result);
    expect(result.entries[0]).toMatchObject({
      temperature: 3,
      control_temperature: 6,
      comment: 'Corrective action: Door seal replaced',
    });
  });

  it('refuses a task that is not open yet, a closed one, and anyone not identified', async () => {
    const later = buildTask({
      module: 'temperatures',
      elements: [taskElementOf(fridge)],
      opens_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const view = renderWithData(<TaskScreen taskId={later.id} />, {
      tasks: [later],
      elements: [fridge],
    });
    expect(await screen.findByText(/^This task opens at /)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    view.unmount();

    const closed = buildTask({
      module: 'temperatures',
      elements: [taskElementOf(fridge)],
      closes_at: new Date(Date.now() - 1000).toISOString(),
    });
    const closedView = renderWithData(<TaskScreen taskId={closed.id} />, {
      tasks: [closed],
      elements: [fridge],
    });
    expect(
      await screen.findByText("This task's day is over: it can no longer be filled in."),
    ).toBeTruthy();
    closedView.unmount();

    await endSession();
    renderWithData(<TaskScreen taskId={task.id} />, {
      tasks: [task],
      elements: [fridge, coldRoom],
    });
    expect(await screen.findByText('Identify yourself first: choose who is working.')).toBeTruthy();
    expect(await outboxRecords()).toHaveLength(0);
  });

  it('opens a completed task read-only; a correction needs a reason and is sent with it', async () => {
    const user = userEvent.setup();
    const done = buildTask({
      module: 'temperatures',
      elements: [taskElementOf(fridge)],
      completed_timestamp: new Date(Date.now() - 600_000).toISOString(),
      employee: { name: 'Ana', surname: 'Lopes' },
      result: {
        entries: [
          {
            element: fridge.id,
            temperature: 3,
            first_temperature: null,
            control_temperature: null,
            comment: '',
            pictures: [],
            timestamp: Math.floor(Date.now() / 1000) - 600,
          },
        ],
      },
    });
    renderWithData(<TaskScreen taskId={done.id} />, { tasks: [done], elements: [fridge] });
    const display = await screen.findByRole('button', { name: /^Temperature – Dairy fridge: 3/ });
    expect(display).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Correct' }));
    await typeTemperature(user, 'Dairy fridge', ['Erase', '2']);
    expect(screen.getByText('Give the reason for the correction.')).toBeTruthy();
    expect(sendButton()).toHaveProperty('disabled', true);
    await user.type(
      screen.getByRole('textbox', { name: 'Reason for the correction' }),
      'Misread the probe',
    );
    await user.click(sendButton());

    await waitFor(async () => expect(await outboxRecords()).toHaveLength(1));
    const [record] = await outboxRecords();
    const body = submitResultBodySchema.parse(record!.body);
    expect(body.reason).toBe('Misread the probe');
    const result = temperaturesResultSchema.parse(body.result);
    expect(result.entries[0]).toMatchObject({ temperature: 2, first_temperature: 3 });
  });
});
