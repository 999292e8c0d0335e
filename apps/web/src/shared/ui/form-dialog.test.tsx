import { Checkbox, NumberInput, Textarea, TextInput } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render-app';
import { FormDialog } from './form-dialog';

function Harness({
  onPrimary,
  isPrimaryDisabled = false,
}: {
  onPrimary: () => void;
  isPrimaryDisabled?: boolean;
}) {
  const [opened, setOpened] = useState(true);
  return (
    <FormDialog
      opened={opened}
      onClose={() => setOpened(false)}
      title="Edit"
      primaryLabel="Save"
      onPrimary={onPrimary}
      isPrimaryDisabled={isPrimaryDisabled}
      primaryTestId="primary"
    >
      <TextInput label="Name" data-testid="name" />
      <NumberInput label="Count" data-testid="count" />
      <Textarea label="Notes" data-testid="notes" />
      <Checkbox label="Active" data-testid="active" />
    </FormDialog>
  );
}

describe('form dialog keyboard', () => {
  it('keeps Enter in a single-line text or number field from activating the primary button (issue 13)', async () => {
    const onPrimary = vi.fn();
    const { user } = renderWithProviders(<Harness onPrimary={onPrimary} />);
    await user.type(screen.getByTestId('name'), 'Bob{Enter}');
    await user.type(screen.getByTestId('count'), '12{Enter}');
    expect(onPrimary).not.toHaveBeenCalled();
    expect((screen.getByTestId('name') as HTMLInputElement).value).toBe('Bob');
  });

  it('activates the primary button on Enter outside the text fields', async () => {
    const onPrimary = vi.fn();
    const { user } = renderWithProviders(<Harness onPrimary={onPrimary} />);
    await user.click(screen.getByTestId('active'));
    await user.keyboard('{Enter}');
    expect(onPrimary).toHaveBeenCalledTimes(1);
  });

  it('keeps Enter for new lines in a textarea', async () => {
    const onPrimary = vi.fn();
    const { user } = renderWithProviders(<Harness onPrimary={onPrimary} />);
    await user.type(screen.getByTestId('notes'), 'line 1{Enter}line 2');
    expect(onPrimary).not.toHaveBeenCalled();
    expect((screen.getByTestId('notes') as HTMLTextAreaElement).value).toBe('line 1\nline 2');
  });

  it('does nothing on Enter while the primary button is not valid', async () => {
    const onPrimary = vi.fn();
    const { user } = renderWithProviders(<Harness onPrimary={onPrimary} isPrimaryDisabled />);
    await user.click(screen.getByTestId('active'));
    await user.keyboard('{Enter}');
    expect(onPrimary).not.toHaveBeenCalled();
  });

  it('closes on Escape', async () => {
    const { user } = renderWithProviders(<Harness onPrimary={vi.fn()} />);
    await user.click(screen.getByTestId('name'));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
