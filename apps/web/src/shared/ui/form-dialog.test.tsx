import { Textarea, TextInput } from '@mantine/core';
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
      <Textarea label="Notes" data-testid="notes" />
    </FormDialog>
  );
}

describe('form dialog keyboard', () => {
  it('activates the primary button on Enter in a text input', async () => {
    const onPrimary = vi.fn();
    const { user } = renderWithProviders(<Harness onPrimary={onPrimary} />);
    await user.type(screen.getByTestId('name'), 'Bob{Enter}');
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
    await user.type(screen.getByTestId('name'), '{Enter}');
    expect(onPrimary).not.toHaveBeenCalled();
  });

  it('closes on Escape', async () => {
    const { user } = renderWithProviders(<Harness onPrimary={vi.fn()} />);
    await user.click(screen.getByTestId('name'));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
