import { Button } from '@mantine/core';
import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render-app';
import { NumericInput } from './numeric-input';

function Harness({ onValue }: { onValue: (value: number | null) => void }) {
  const [value, setValue] = useState<number | null>(-18);
  return (
    <>
      <NumericInput
        value={value}
        onChange={(next) => {
          setValue(next);
          onValue(next);
        }}
        suffix=" °C"
        data-testid="field"
      />
      <Button onClick={() => setValue(-25)} data-testid="reset">
        Reset
      </Button>
    </>
  );
}

describe('numeric input', () => {
  it('keeps a minus sign typed over a selection, reporting null until a number is typed', async () => {
    const onValue = vi.fn();
    const { user } = renderWithProviders(<Harness onValue={onValue} />);
    const input = screen.getByTestId('field') as HTMLInputElement;
    await user.tripleClick(input);
    await user.keyboard('-');
    expect(input.value).toContain('-');
    expect(onValue).toHaveBeenLastCalledWith(null);
    await user.keyboard('15');
    expect(input.value).toBe('-15 °C');
    expect(onValue).toHaveBeenLastCalledWith(-15);
  });

  it('shows a value set from outside (a reset) instead of the typed text', async () => {
    const { user } = renderWithProviders(<Harness onValue={vi.fn()} />);
    const input = screen.getByTestId('field') as HTMLInputElement;
    await user.tripleClick(input);
    await user.keyboard('-');
    await user.click(screen.getByTestId('reset'));
    expect(input.value).toBe('-25 °C');
  });
});
