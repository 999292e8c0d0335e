import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { setClockTime } from '../../test/clock-time';
import { renderWithProviders } from '../../test/render-app';
import { ClockTimeInput } from './clock-time-input';

function Harness({ onValue }: { onValue: (value: string) => void }) {
  const [value, setValue] = useState('17:05');
  return (
    <ClockTimeInput
      label="Start"
      value={value}
      onChange={(next) => {
        setValue(next);
        onValue(next);
      }}
      testId="time"
    />
  );
}

describe('clock time input', () => {
  it('shows and takes a time of day in 24 hours, with labelled hours and minutes and no AM/PM', async () => {
    const onValue = vi.fn();
    const { container } = renderWithProviders(<Harness onValue={onValue} />);

    const hours = await screen.findByRole('spinbutton', { name: 'Hours' });
    const minutes = screen.getByRole('spinbutton', { name: 'Minutes' });
    expect((hours as HTMLInputElement).value).toBe('17');
    expect((minutes as HTMLInputElement).value).toBe('05');
    expect(container.querySelector('select')).toBeNull();
    expect(screen.queryByText(/^(AM|PM)$/)).toBeNull();

    setClockTime('time', '23:45');
    expect(onValue).toHaveBeenLastCalledWith('23:45');
    expect((screen.getByTestId('time') as HTMLInputElement).value).toBe('23:45');
  });
});
