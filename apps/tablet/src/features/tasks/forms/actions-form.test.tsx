import { actionsResultSchema, submitResultBodySchema } from '@mise/shared/tasks/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
