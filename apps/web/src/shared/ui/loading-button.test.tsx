import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render-app';
import { LoadingButton } from './loading-button';

describe('LoadingButton', () => {
  it('is disabled while its action runs, then usable again', async () => {
    let finish: () => void = () => undefined;
    let runs = 0;
    const action = () => {
      runs += 1;
      return new Promise<void>((resolve) => {
        finish = resolve;
      });
    };
    const { user } = renderWithProviders(<LoadingButton onClick={action}>Save</LoadingButton>);
    const button = screen.getByRole('button', { name: 'Save' });

    await user.click(button);
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(true));
    await user.click(button);
    expect(runs).toBe(1);

    finish();
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
  });
});
