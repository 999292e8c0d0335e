import { createUnscheduledTaskBodySchema } from '@mise/shared/device/schemas';
import { submitResultBodySchema, temperatureControlInputSchema } from '@mise/shared/tasks/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Device } from '../../shared/api/types';
import { loadDevice, unpair } from '../../shared/device/device-state';
import { setDeviceToken } from '../../shared/device/device-token';
import { readValue, writeValue } from '../../shared/storage/local-db';
import {
  buildElement,
  endSession,
  openTestSession,
  outboxRecords,
  renderWithData,
  storeElementIds,
  stubOffline,
} from '../../test/factories';
import { addOpenControl, type OpenControl, openControlsKey } from './open-controls';
import { UnscheduledScreen } from './unscheduled-screen';

vi.mock('../../shared/camera/camera-capture', async () => ({
  CameraCapture: (await import('../tasks/forms/fake-camera')).FakeCameraCapture,
}));

beforeEach(async () => {
  stubOffline();
  await openTestSession();
});
afterEach(async () => {
  await endSession();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const chicken = buildElement({
  id: storeElementIds.chicken,
  name: 'Roast chicken',
  modules: {
    temperatures: false,
    labels: false,
    traceability: true,
    oils: false,
    temperature_control: true,
    encyclopedia: false,
    display_active: false,
  },
  cooling_temperature: 3,
  cooling_duration: 90,
  reheating_temperature: 63,
  reheating_duration: 60,
});
const fridge = buildElement({ id: storeElementIds.fridge, name: 'Dairy fridge' });

describe('Temperature control', () => {
  it('records the start, reminds when the duration has passed, then records the end on the same task', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T12:00:00Z'));
    const user = userEvent.setup();
    renderWithData(<UnscheduledScreen module="temperature_control" />, {
      elements: [chicken, fridge],
    });

    expect(await screen.findByText('No control in progress.')).toBeTruthy();
    // Only the elements whose temperature control module is on.
    expect(screen.queryByRole('button', { name: 'Dairy fridge' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Roast chicken' }));
    await user.click(screen.getByRole('button', { name: 'Cooling' }));
    expect(screen.getByText('Target: at or below 3 °C at the end')).toBeTruthy();
    expect(screen.getByText('End temperature due in 90 min.')).toBeTruthy();
    const start = screen.getByRole('textbox', { name: 'Start temperature' });
    await user.click(start);
    await user.keyboard('63.5');
    await user.click(screen.getByRole('button', { name: 'Start the control' }));

    const card = await screen.findByRole('article', { name: 'Roast chicken' });
    expect(within(card).getByText('1:30:00 left')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    const [first] = await outboxRecords();
    expect(first!.kind).toBe('task-create');
    expect(first!.path).toBe('/device/tasks');
    const created = createUnscheduledTaskBodySchema.parse(first!.body);
    expect(created).toMatchObject({ module: 'temperature_control', element: chicken.id });
    const startTimestamp = Math.floor(Date.parse('2026-11-24T12:00:00Z') / 1000);
    expect(created.result.entries).toEqual([
      {
        element: chicken.id,
        mode: 'cooling',
        target_temperature: 3,
        start_temperature: 63.5,
        start_timestamp: startTimestamp,
        end_temperature: null,
        end_timestamp: null,
        comment: '',
      },
    ]);
    const kept = await readValue<OpenControl[]>(openControlsKey);
    expect(kept?.map((control) => control.id)).toEqual([created.id]);

    // 91 minutes later: the reminder shows.
    vi.setSystemTime(new Date('2026-11-24T13:31:00Z'));
    expect(
      await screen.findByText('A control is due: take its end temperature.', {}, { timeout: 3000 }),
    ).toBeTruthy();
    expect(within(card).getByText('Time is up')).toBeTruthy();

    await user.click(
      within(card).getByRole('button', { name: 'End temperature of Roast chicken' }),
    );
    await user.keyboard('5');
    expect(within(card).getByText('Invalid: a cooling must end at or below 3 °C.')).toBeTruthy();
    await user.keyboard('{Backspace}2');
    expect(within(card).queryByText(/^Invalid/)).toBeNull();
    expect(within(card).getByText('Target reached.')).toBeTruthy();
    await user.keyboard('{Backspace}4');
    expect(within(card).getByText('Invalid: a cooling must end at or below 3 °C.')).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: 'Record the end' }));

    await waitFor(async () => expect(await outboxRecords()).toHaveLength(2));
    expect(await screen.findByText('No control in progress.')).toBeTruthy();
    const [, second] = await outboxRecords();
    expect(second!.task_id).toBe(first!.task_id);
    expect(second!.path).toBe(`/device/tasks/${created.id}/result`);
    const ended = temperatureControlInputSchema.parse(
      submitResultBodySchema.parse(second!.body).result,
    );
    expect(ended.entries).toEqual([
      {
        ...created.result.entries[0],
        end_temperature: 4,
        end_timestamp: Math.floor(Date.parse('2026-11-24T13:31:00Z') / 1000),
      },
    ]);
    expect(await readValue<OpenControl[]>(openControlsKey)).toEqual([]);
  });
});

describe('Temperature control reminder', () => {
  it("beeps once for a control that is due when the device's audio reminders are on", async () => {
    const beeps: number[] = [];
    class FakeAudioContext {
      currentTime = 0;
      destination = {};
      createOscillator() {
        return {
          type: 'sine',
          frequency: { value: 0 },
          onended: null,
          connect: () => undefined,
          start: () => beeps.push(Date.now()),
          stop: () => undefined,
        };
      }
      createGain() {
        return { gain: { value: 0 }, connect: () => undefined };
      }
      close() {
        return Promise.resolve();
      }
    }
    vi.stubGlobal('AudioContext', FakeAudioContext);
    await setDeviceToken('device-token');
    await writeValue('device', { audio_task_reminders: true } as Partial<Device>);
    await loadDevice();
    await addOpenControl({
      id: '9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a',
      label: 'Temperature control – Roast chicken',
      element: chicken.id,
      element_name: 'Roast chicken',
      mode: 'reheating',
      target_temperature: 63,
      start_temperature: 4,
      start_timestamp: Math.floor(Date.now() / 1000) - 61 * 60,
      duration_minutes: 60,
      comment: '',
    });
    try {
      renderWithData(<UnscheduledScreen module="temperature_control" />, { elements: [chicken] });
      expect(await screen.findByText('A control is due: take its end temperature.')).toBeTruthy();
      await waitFor(() => expect(beeps).toHaveLength(1));
      // The next ticks of the clock do not beep again for the same control.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(beeps).toHaveLength(1);

      // A control the employee drops (its start refused, say) leaves the list after a confirmation.
      const user = userEvent.setup();
      await user.click(screen.getByRole('button', { name: 'Remove from the list' }));
      await user.click(screen.getByRole('button', { name: 'Confirm' }));
      expect(await screen.findByText('No control in progress.')).toBeTruthy();
      expect(await readValue<OpenControl[]>(openControlsKey)).toEqual([]);
      expect(await outboxRecords()).toHaveLength(0);
    } finally {
      await unpair();
    }
  });
});

describe('Traceability', () => {
  it("saves the photos of a product's labels as a new task", async () => {
    const user = userEvent.setup();
    renderWithData(<UnscheduledScreen module="traceability" />, { elements: [chicken, fridge] });
    const send = await screen.findByRole('button', { name: 'Send' });
    expect(send).toHaveProperty('disabled', true);
    expect(screen.getByText('Choose the product or equipment.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Roast chicken' }));
    expect(screen.getByText('Take at least one picture of the labels.')).toBeTruthy();
    for (let shot = 0; shot < 2; shot += 1) {
      await user.click(screen.getByRole('button', { name: 'Take a picture: Roast chicken' }));
      await user.click(screen.getByRole('button', { name: 'Fake shutter' }));
    }
    await screen.findByRole('img', { name: 'Picture 2: Roast chicken' });
    await user.click(send);

    await waitFor(async () => expect(await outboxRecords()).toHaveLength(1));
    const [record] = await outboxRecords();
    const body = createUnscheduledTaskBodySchema.parse(record!.body);
    if (body.module !== 'traceability') throw new Error(`a ${body.module} task was saved`);
    expect(body.element).toBe(chicken.id);
    expect(body.result.entries).toHaveLength(1);
    expect(body.result.entries[0]!.element).toBe(chicken.id);
    expect(body.result.entries[0]!.pictures.map((picture) => picture.path)).toEqual([
      expect.stringMatching(/^local:/),
      expect.stringMatching(/^local:/),
    ]);
  });

  it('asks who is working before anything is recorded', async () => {
    await endSession();
    renderWithData(<UnscheduledScreen module="traceability" />, { elements: [chicken] });
    expect(await screen.findByText('Identify yourself first: choose who is working.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Roast chicken' })).toBeNull();
  });
});
